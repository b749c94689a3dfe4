package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/results"
)

// A chain runs methods one after the other, each stage starting from the
// best vector of the stage before (config key `then`): a static fit that
// is cheap and reliable (Texel) followed by a match-based refinement that
// adds what the fit cannot see (SPSA), as docs/experiments.md experiment 10
// measured. Every stage is an ordinary run directory inside the chain's
// directory, StageDir(dir, k, method), with its own records, plots, ladder
// and report; the chain's directory holds FileChain, the resolved config of
// every stage, written before the first game, so a stopped chain continues
// (package tune/chain runs it: Run, Resume, or the same command again)
// with exactly the settings it started with.

// FileChain is the file of a chain's directory that lists its stages.
const FileChain = "chain.json"

// maxStages bounds a chain (and catches a config whose `then` loops).
const maxStages = 8

// StageDir is the run directory of stage k (from 1) of a chain in dir.
func StageDir(dir string, k int, method string) string {
	return filepath.Join(dir, fmt.Sprintf("stage-%d-%s", k, method))
}

// checkThen checks a `then` value's form; Stages loads it.
func checkThen(then string) error {
	if isConfigPath(then) {
		return nil
	}
	_, err := configs.Config(then)
	return err
}

func isConfigPath(then string) bool {
	return strings.HasSuffix(then, ".toml") || strings.ContainsAny(then, `/\`)
}

// Stages resolves the chain that cfg begins: cfg, then the config its
// `then` names, and so on, at most 8 stages. Every later stage takes the
// first stage's seed (so -seed and -seeds move the whole chain) and must
// not set start (it starts from the stage before). A `then` path is
// relative to the directory of the config file that names it (Load
// resolves it); an embedded config's `then` ("x" or "x.toml") names another
// embedded config; in a config from Parse, a path is relative to the
// working directory. The stages are validated; nothing is written. Errors: a
// *ConfigError naming the file and key at fault.
func Stages(cfg Config) ([]Config, error) {
	stages := []Config{cfg}
	name := "the config"
	for cur := cfg; cur.Then != ""; {
		if len(stages) == maxStages {
			return nil, &ConfigError{File: name, Key: "then", Msg: fmt.Sprintf("a chain has at most %d stages (does `then` loop?)", maxStages)}
		}
		next, nextName, err := loadStage(cur, name, cfg.Seed)
		if err != nil {
			return nil, err
		}
		stages = append(stages, next)
		cur, name = next, nextName
	}
	return stages, nil
}

// thenFrom resolves a `then` read from the config file path ("" for an
// embedded config): a relative path becomes relative to the file's
// directory; in an embedded config a bare "x.toml" names the embedded x.
func thenFrom(then, path string) string {
	switch {
	case !isConfigPath(then):
		return then
	case path == "" && !strings.ContainsAny(then, `/\`):
		return strings.TrimSuffix(then, ".toml")
	case path != "" && !filepath.IsAbs(then):
		return filepath.Join(filepath.Dir(path), then)
	}
	return then
}

// loadStage loads the stage prev's `then` names, with the chain's seed;
// prevName names prev in errors.
func loadStage(prev Config, prevName string, seed int64) (Config, string, error) {
	var name, from string
	var data []byte
	var err error
	if isConfigPath(prev.Then) {
		name, from = prev.Then, prev.Then
		data, err = fileio.ReadFile(name, fileio.Config)
	} else {
		data, err = configs.Config(prev.Then)
		name = "configs/" + prev.Then + ".toml (embedded)"
	}
	if err != nil {
		return Config{}, "", &ConfigError{File: prevName, Key: "then", Msg: err.Error()}
	}
	c, err := decode(name, data)
	if err != nil {
		return Config{}, "", err
	}
	if c.Start != "" {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "start"), Key: "start",
			Msg: fmt.Sprintf("a later stage of a chain starts from the best vector of the stage before (%s); remove start", prevName)}
	}
	if c.Budget != "" {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "budget"), Key: "budget",
			Msg: "a later stage of a chain takes its share of the chain's budget, the first stage's budget (or -hours); remove budget"}
	}
	if c.Schema != prev.Schema && c.External == nil && prev.External == nil {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "schema"), Key: "schema",
			Msg: fmt.Sprintf("a later stage of a chain starts from the best vector of the stage before (%s), which tunes the %s schema, not %s: give schema = %q", prevName, prev.Schema, c.Schema, prev.Schema)}
	}
	c.Seed, c.chained = seed, true
	c.Then = thenFrom(c.Then, from)
	if err := c.Validate(); err != nil {
		return Config{}, "", locate(err, name, data, nil)
	}
	return c, name, nil
}

// StartFrom is c starting from the best vector of the run in dir (its
// Start): a later stage of a chain (Stages), which starts from the stage
// before, becomes the run its stage directory holds, a run of its own.
func (c Config) StartFrom(dir string) Config {
	c.Start, c.chained = dir, false
	return c
}

// ChainFile is FileChain, a chain's list of stages: each stage's
// directory (relative to the chain's) and resolved config, and the
// chain's budget.
type ChainFile struct {
	Version int          `json:"version"`
	Stages  []ChainStage `json:"stages"`
	// Budget is a budgeted chain's budget; nil without one.
	Budget *budget.Chain `json:"budget,omitempty"`
}

// ChainStage is one stage of a ChainFile.
type ChainStage struct {
	Dir    string `json:"dir"`    // StageDir's base name
	Config string `json:"config"` // TOML, Config.Encode; a later stage without its start, no stage with a budget
}

const chainVersion = 1

// NewChainFile is the ChainFile of a new chain of stages (Stages' result)
// in dir, with the budget b (nil without one): each stage's config
// without its budget, which is the chain's. Errors: a stage's Encode.
func NewChainFile(dir string, stages []Config, b *budget.Chain) (ChainFile, error) {
	cf := ChainFile{Version: chainVersion, Budget: b}
	for k, c := range stages {
		c = c.WithBudget("", "")
		data, err := c.Encode()
		if err != nil {
			return cf, err
		}
		cf.Stages = append(cf.Stages, ChainStage{Dir: filepath.Base(StageDir(dir, k+1, c.Method)), Config: string(data)})
	}
	return cf, nil
}

// IsChain reports whether dir holds a chain (FileChain).
func IsChain(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, FileChain))
	return err == nil
}

// ReadChain reads the stages of the chain in dir (its FileChain), in
// order. Errors name the file at fault.
func ReadChain(dir string) ([]Config, error) {
	_, stages, err := ReadChainFile(dir)
	return stages, err
}

// ReadChainFile reads the chain in dir: its FileChain and its stages,
// decoded and validated, in order. Errors (*InputError, *ConfigError)
// name the file and stage at fault: a version this roadtune does not
// read, no stages, a malformed budget, a stage's config or directory.
func ReadChainFile(dir string) (ChainFile, []Config, error) {
	path := filepath.Join(dir, FileChain)
	var cf ChainFile
	if err := results.ReadJSON(path, &cf); err != nil {
		return cf, nil, &InputError{err}
	}
	if cf.Version != chainVersion {
		return cf, nil, InputErrorf("%s: version %d: this roadtune reads version %d", path, cf.Version, chainVersion)
	}
	if len(cf.Stages) == 0 {
		return cf, nil, InputErrorf("%s: no stages", path)
	}
	if b := cf.Budget; b != nil && (!(b.Seconds > 0) || len(b.Games) != len(cf.Stages) || !(b.Calibration >= 0)) {
		return cf, nil, InputErrorf("%s: budget: seconds %g must be > 0, calibration %g ≥ 0, with a forecast for each of the %d stages", path, b.Seconds, b.Calibration, len(cf.Stages))
	}
	var stages []Config
	for k, s := range cf.Stages {
		name := fmt.Sprintf("%s: stage %d", path, k+1)
		c, err := decode(name, []byte(s.Config))
		if err != nil {
			return cf, nil, err
		}
		c.chained = k > 0
		if err := c.Validate(); err != nil {
			return cf, nil, locate(err, name, []byte(s.Config), nil)
		}
		if want := filepath.Base(StageDir(dir, k+1, c.Method)); s.Dir != want {
			return cf, nil, InputErrorf("%s: stage %d's directory is %q, want %q", path, k+1, s.Dir, want)
		}
		stages = append(stages, c)
	}
	return cf, stages, nil
}
