package spsa

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Self is the pool entry for self-play: θ + c_k·Δ against θ − c_k·Δ,
// fishtest's SPSA.
const Self = "self"

// Opponent is one entry of the pool an iteration may play against: a fixed
// vector of the schema (genes in the schema's order, weight units) or Self
// (Genes nil).
type Opponent struct {
	Name  string
	Genes []float64
}

// IsSelf reports whether the entry is self-play.
func (o Opponent) IsSelf() bool { return o.Name == Self }

// check fails unless o is Self or a finite vector of n genes.
func (o Opponent) check(n int) error {
	if o.Name == "" {
		return errors.New("no name")
	}
	if o.IsSelf() {
		return nil
	}
	return optimize.CheckVector(fmt.Sprintf("opponent %s", o.Name), o.Genes, n)
}

// resolvePool resolves the pool's names through p.Opponent; a name it cannot
// resolve keeps nil genes, which Config.Validate reports.
func resolvePool(names []string, p optimize.Problem) []Opponent {
	if len(names) == 0 {
		return nil
	}
	out := make([]Opponent, len(names))
	for i, name := range names {
		out[i].Name = name
		if name == Self || p.Opponent == nil {
			continue
		}
		if g, err := p.Opponent(name); err == nil {
			out[i].Genes = slices.Clone(g)
		}
	}
	return out
}

// checkPool checks the opponents option against p: every entry named,
// "self" or a name p.Opponent resolves to a vector of the problem's genes.
// Errors are *optimize.OptionError with Key "opponents".
func checkPool(names []string, p optimize.Problem) error {
	bad := func(format string, args ...any) error {
		return &optimize.OptionError{Key: "opponents", Msg: fmt.Sprintf(format, args...)}
	}
	for i, name := range names {
		switch {
		case name == "":
			return bad("entry %d is empty (want %q or a baseline or weight file)", i+1, Self)
		case name == Self:
			continue
		case p.Opponent == nil:
			return bad("entry %d, %q: this job runner offers no opponents by name; only %q", i+1, name, Self)
		}
		g, err := p.Opponent(name)
		if err != nil {
			return bad("entry %d, %q: %v", i+1, name, err)
		}
		if err := optimize.CheckVector(name, g, len(p.Genes)); err != nil {
			return bad("entry %d: %v", i+1, err)
		}
	}
	return nil
}

// drawOpponent draws the iteration's pool entry from rng, after Δ and the
// batch seed; self-play without a drawn number when the pool is empty, so
// a run without a pool draws exactly fishtest's sequence.
func (c Config) drawOpponent(rng *rand.Rand) Opponent {
	if len(c.Opponents) == 0 {
		return Opponent{Name: Self}
	}
	return c.Opponents[rng.IntN(len(c.Opponents))]
}

// iterationGames is the number of games an iteration against o plays:
// one match of Pairs game pairs in self-play, two against a fixed
// opponent (the plus and the minus side each play it).
func (c Config) iterationGames(o Opponent) int {
	if o.IsSelf() {
		return 2 * c.pairs()
	}
	return 4 * c.pairs()
}

// peekOpponent is the entry the next Step will draw, from a copy of the
// run's source.
func (s *SPSA) peekOpponent() Opponent {
	saved := *s.pcg
	rng := rand.New(&saved)
	for range s.θ {
		rng.Uint64() // Δ
	}
	rng.Uint64() // the batch seed
	return s.cfg.drawOpponent(rng)
}
