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

// resolvePool resolves the opponents option through p.Opponent, each
// distinct name once: every entry named, "self" or a name p.Opponent
// resolves to a vector of the problem's genes. Errors are
// *optimize.OptionError with Key "opponents"; Settings.resolve keeps what
// resolved (an entry that did not keeps nil genes, which config.validate
// reports).
func resolvePool(names []string, p optimize.Problem) ([]Opponent, error) {
	if len(names) == 0 {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return &optimize.OptionError{Key: "opponents", Msg: fmt.Sprintf(format, args...)}
	}
	out := make([]Opponent, len(names))
	seen := map[string][]float64{}
	var first error
	for i, name := range names {
		out[i].Name = name
		g, ok := seen[name]
		var err error
		switch {
		case ok:
		case name == "":
			err = bad("entry %d is empty (want %q or a baseline or weight file)", i+1, Self)
		case name == Self:
		case p.Opponent == nil:
			err = bad("entry %d, %q: this job runner offers no opponents by name; only %q", i+1, name, Self)
		default:
			if g, err = p.Opponent(name); err != nil {
				err = bad("entry %d, %q: %v", i+1, name, err)
			} else if err = optimize.CheckVector(name, g, len(p.Genes)); err != nil {
				err = bad("entry %d: %v", i+1, err)
			}
			seen[name] = g
		}
		if err != nil && first == nil {
			first = err
		}
		if name != Self {
			out[i].Genes = slices.Clone(g)
		}
	}
	return out, first
}

// iterationGames is the number of games an iteration against o plays:
// one match of Pairs game pairs in self-play, two against a fixed
// opponent (the plus and the minus side each play it).
func (c config) iterationGames(o Opponent) int {
	if o.IsSelf() {
		return 2 * c.pairs()
	}
	return 4 * c.pairs()
}

// peekOpponent is the entry the next Step will draw, from a copy of the
// run's source.
func (s *SPSA) peekOpponent() Opponent {
	saved := *s.pcg
	_, _, o := s.cfg.draw(rand.New(&saved))
	return o
}

// draw makes an iteration's random draws from rng, in their order: Δ (one
// ±1 per gene, in gene order), the batch seed and, with a pool only, the
// pool's entry (self-play without a drawn number when the pool is empty,
// so a run without a pool draws exactly fishtest's sequence).
func (c config) draw(rng *rand.Rand) (delta []int, seed uint64, o Opponent) {
	delta = make([]int, len(c.Genes))
	for d := range delta {
		delta[d] = 1 - 2*int(rng.Uint64()>>63)
	}
	seed = rng.Uint64()
	if len(c.Opponents) == 0 {
		return delta, seed, Opponent{Name: Self}
	}
	return delta, seed, c.Opponents[rng.IntN(len(c.Opponents))]
}
