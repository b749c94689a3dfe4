package tournament

import (
	"errors"
	"fmt"
)

// Entrant is a player as a schedule sees it: the engine's description
// (Engine: name, weights and settings, or an external program, and the
// time control) and what only a running match has. Exactly one kind is
// used, in this order of precedence:
//   - New != nil: a custom player; each worker calls New once, at the
//     entrant's first game on that worker, and reuses the instance.
//   - Engine.IsExternal(): an external protocol engine (ExternalPlayer,
//     NewExternal) with run-time options External (transcript, quit
//     grace), per-move limit MoveTime when Time is zero, lines Setup sent
//     at every game; a worker keeps one process per entrant and restarts
//     it after a forfeit, or, with Runner.Processes set, borrows
//     processes from that pool game by game.
//   - otherwise: the in-process roadtune engine with Weights and Settings.
//     A worker holds one engine.Engine per colour, allocated once (or lent
//     by Runner.Engines), and switches weights and settings between games
//     (SetWeights, SetSettings), so entrants cost no memory per worker.
//
// Every kind plays by Time when it is set.
//
// An entrant never meets itself (a fixture with A == B is an error); to
// play a vector against itself, enter it twice under two names.
type Entrant struct {
	Engine
	// External are an external entrant's run-time options (transcript,
	// quit grace); its transcript label is its Name.
	External ExternalOptions
	New      func() (Player, error)
	// Setup are lines sent to an external entrant's process at every
	// NewGame: after the handshake and init strings of a fresh process
	// (also one restarted after a forfeit), before the game's "new"
	// line, transcribed like every line sent. They carry what changes
	// from one entrant to the next on a process that is reused (see
	// Runner.Processes): a tuning candidate's values as "setoption name
	// N value V" lines or init-string-template lines ("param Width 15").
	// A process keeps what earlier setup lines set, so entrants that
	// share processes should each set every value any of them sets.
	// The engine's answers to them (an "error ..." line) are only
	// transcribed; CheckSetup checks lines beforehand. Only external
	// entrants (Program, no New) may have them; Run refuses others.
	// The slice is read, never changed.
	Setup []string
}

// Fixture is one game pair of a schedule: A has Black in the pair's first
// game and B has Black in the second, both from opening number Opening
// (an index into the runner's suite, taken modulo its length).
type Fixture struct {
	A, B    int // entrant indices
	Opening int
}

// HeadToHead schedules a match of pairs game pairs between entrants a and
// b, pair k from opening k.
func HeadToHead(a, b, pairs int) []Fixture {
	out := make([]Fixture, 0, max(pairs, 0))
	for k := range pairs {
		out = append(out, Fixture{A: a, B: b, Opening: k})
	}
	return out
}

// RoundRobin schedules every pairing of the given entrants, pairs game pairs
// each: round k plays pair k of every pairing (i before j in the order
// given) from opening k, so each ordered pairing (who has Black) occurs
// exactly once per game pair.
func RoundRobin(players []int, pairs int) []Fixture {
	var out []Fixture
	for k := range pairs {
		for i := range players {
			for j := i + 1; j < len(players); j++ {
				out = append(out, Fixture{A: players[i], B: players[j], Opening: k})
			}
		}
	}
	return out
}

// Indices returns 0, 1, …, n−1 (the players of a round robin over n
// entrants).
func Indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// GroupedRoundRobin schedules a round robin inside each group (Chen 2010
// §4.4.2.2 grouped tournament), groups one after another per round: round k
// plays pair k of every pairing of every group. An entrant may appear in
// one group only; a group needs at least two entrants.
func GroupedRoundRobin(groups [][]int, pairs int) ([]Fixture, error) {
	seen := map[int]int{}
	for g, grp := range groups {
		if len(grp) < 2 {
			return nil, fmt.Errorf("group %d has %d entrants, want at least 2", g, len(grp))
		}
		for _, e := range grp {
			if h, ok := seen[e]; ok {
				return nil, fmt.Errorf("entrant %d is in groups %d and %d", e, h, g)
			}
			seen[e] = g
		}
	}
	var out []Fixture
	for k := range pairs {
		for _, grp := range groups {
			for i := range grp {
				for j := i + 1; j < len(grp); j++ {
					out = append(out, Fixture{A: grp[i], B: grp[j], Opening: k})
				}
			}
		}
	}
	return out, nil
}

// Gauntlet schedules champion against every other of the given entrants,
// pairs game pairs each, round by round as RoundRobin.
func Gauntlet(champion int, others []int, pairs int) []Fixture {
	var out []Fixture
	for k := range pairs {
		for _, o := range others {
			if o != champion {
				out = append(out, Fixture{A: champion, B: o, Opening: k})
			}
		}
	}
	return out
}

// checkFixtures validates entrant indices.
func checkFixtures(fx []Fixture, n int) error {
	if len(fx) == 0 {
		return errors.New("tournament: empty schedule")
	}
	for i, f := range fx {
		if f.A < 0 || f.A >= n || f.B < 0 || f.B >= n {
			return fmt.Errorf("tournament: fixture %d: entrants %d, %d out of range [0, %d)", i, f.A, f.B, n)
		}
		if f.A == f.B {
			return fmt.Errorf("tournament: fixture %d: entrant %d against itself", i, f.A)
		}
		if f.Opening < 0 {
			return fmt.Errorf("tournament: fixture %d: negative opening %d", i, f.Opening)
		}
	}
	return nil
}
