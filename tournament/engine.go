// This file holds Engine, the one description of an engine that every
// room passes on: from a tuning config or arena's -engine lists through
// the referee to the cluster's workers.

package tournament

import (
	"time"

	"github.com/roadtune/roadtune/engine"
)

// Engine describes one engine as a match plays it (after fastchess's
// EngineConfiguration): the in-process roadtune engine with its weights
// and settings, or an external protocol engine (Program set) with its
// program, arguments, directory, init strings, per-move limit and
// handshake; either with its time control. It is plain data, written as JSON with the tags
// below (the in-process fields first, so the games batches of package
// cluster keep their shape); what only a running match has (a custom
// player, setup lines, a transcript) is the Entrant's.
type Engine struct {
	// Name names the engine in tables, records and transcripts (an
	// external engine's transcript label is the base name of its program
	// when Name is ""); a cluster's workers know an external engine by
	// Name and SHA256.
	Name string `json:"name" toml:"name,omitempty"`
	// Weights and Settings are the in-process engine's road weights and
	// search settings (unused for an external engine).
	Weights  engine.Weights  `json:"weights,omitzero" toml:"-"`
	Settings engine.Settings `json:"settings,omitzero" toml:"-"`
	// Time is the engine's time control (st= or tc=, PlayGameTimed);
	// zero: none. An in-process engine then thinks within the clock by
	// iterative deepening up to Settings.Depth (EnginePlayer.SetClock),
	// which makes its games depend on the machine; without a time
	// control it is deterministic.
	Time TimeControl `json:"time" toml:"-"`
	// Program is an external engine's program, started without a shell
	// with the fixed arguments Args: a name without a path separator is
	// looked up in $PATH, a relative path is taken from Dir. "" for the
	// in-process engine.
	Program string   `json:"program,omitempty" toml:"cmd"`
	Args    []string `json:"args,omitempty" toml:"args,omitempty"`
	// Dir is the external engine's working directory ("" = the current
	// one).
	Dir string `json:"dir,omitempty" toml:"dir,omitempty"`
	// InitStrings are sent one per line after the handshake of every
	// process, e.g. "depth 2" or "vcf".
	InitStrings []string `json:"init_strings,omitempty" toml:"initstr,omitempty"`
	// MoveTime is an external engine's per-move limit without a time
	// control (DefaultMoveTime when ≤ 0); a move over it loses the game.
	MoveTime time.Duration `json:"move_time,omitempty" toml:"-"`
	// Handshake bounds the wait for an external engine's reply to "name"
	// at process start (DefaultHandshake when ≤ 0).
	Handshake time.Duration `json:"handshake,omitempty" toml:"-"`
	// SHA256 is the SHA-256 of an external engine's program file in hex
	// (64 digits), "" when not taken: how a cluster's workers tell their
	// copy of the program from another under the same Name. The games do
	// not depend on it.
	SHA256 string `json:"sha256,omitempty" toml:"-"`
}

// IsExternal reports whether e is an external protocol engine (Program
// set) rather than the in-process engine.
func (e Engine) IsExternal() bool { return e.Program != "" }

// Argv is an external engine's command line: Program, then Args (a new
// slice).
func (e Engine) Argv() []string { return append([]string{e.Program}, e.Args...) }

// EngineID is an external engine as a cluster's batches and heartbeats
// name it: its name and its program's SHA-256, never its path.
type EngineID struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// ID is the engine's name and program fingerprint.
func (e Engine) ID() EngineID { return EngineID{Name: e.Name, SHA256: e.SHA256} }
