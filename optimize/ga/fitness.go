package ga

import (
	"fmt"

	"github.com/roadtune/roadtune/optimize"
)

// RoundRobin lists the matches of a round robin among k players as index
// pairs (0,1), (0,2), …, (0,k−1), (1,2), …, (k−2,k−1): k(k−1)/2 pairs, the
// first index playing as A. Each pair meets in one optimize.Match; how many
// games that lasts (Chen: one game pair, each side first once) is the
// referee's setting.
func RoundRobin(k int) [][2]int {
	if k < 2 {
		return nil
	}
	pairs := make([][2]int, 0, k*(k-1)/2)
	for i := range k {
		for j := i + 1; j < k; j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	return pairs
}

// RoundRobinFitness returns the fitness of k players after a round robin
// whose matches, in RoundRobin(k) order, had the given outcomes (A's view).
//
// FitnessImproved (Chen 2010 §4.4.2.2): every player starts at 1; A gains
// Outcome.Score() (win 1, draw ½) and B gains Games − Score.
// FitnessOriginal (Chen 2010 §4.4.2.1): every player starts at 0; A gains
// Wins − Losses and B the opposite (a draw counts 0).
//
// It returns an error if len(outcomes) ≠ k(k−1)/2, if a count is negative,
// or if form is unknown.
func RoundRobinFitness(form FitnessForm, k int, outcomes []optimize.Outcome) ([]float64, error) {
	if form == "" {
		form = FitnessImproved
	}
	pairs := RoundRobin(k)
	if len(outcomes) != len(pairs) {
		return nil, fmt.Errorf("ga: round robin of %d players: got %d outcomes, want %d", k, len(outcomes), len(pairs))
	}
	f := make([]float64, k)
	switch form {
	case FitnessImproved:
		for i := range f {
			f[i] = 1
		}
	case FitnessOriginal:
	default:
		return nil, fmt.Errorf("ga: unknown fitness form %q", form)
	}
	for p, o := range outcomes {
		if o.Wins < 0 || o.Draws < 0 || o.Losses < 0 {
			return nil, fmt.Errorf("ga: round robin match %d: negative game count in %+v", p, o)
		}
		a, b := pairs[p][0], pairs[p][1]
		if form == FitnessImproved {
			s := o.Score()
			f[a] += s
			f[b] += float64(o.Games()) - s
		} else {
			d := float64(o.Wins - o.Losses)
			f[a] += d
			f[b] -= d
		}
	}
	return f, nil
}

// Champion returns the index of the highest fitness. Ties go to the lowest
// index: inside a group that is the one listed first, and as the GA lists a
// group in the order of its seeded shuffle, a tie is settled by a
// reproducible lottery. (Chen 2010 leaves the tie rule open.) It returns −1
// for an empty slice.
func Champion(fitness []float64) int {
	best := -1
	for i, f := range fitness {
		if best < 0 || f > fitness[best] {
			best = i
		}
	}
	return best
}

// Standings is one generation's grouped tournament fitness, indexed by
// individual (population order) unless said otherwise.
type Standings struct {
	Form FitnessForm
	// Groups[j] lists the individuals of group j in the order they play
	// (RoundRobin over this list).
	Groups [][]int
	// Group[i] is the group of individual i.
	Group []int
	// GroupFitness[i] is i's raw fitness from its group's round robin.
	GroupFitness []float64
	// Champions[j] is the individual that won group j (best_fitness[j] is
	// GroupFitness[Champions[j]]); ties as in Champion.
	Champions []int
	// EliteFitness[j] is the elite round robin fitness of Champions[j]
	// (Chen's elite_fitness[j]); nil before EliteStage and in the original
	// form.
	EliteFitness []float64
	// Fitness[i] is the fitness selection uses: after EliteStage the
	// normalised fitness of eq. 4.5; before it, and always in the original
	// form, GroupFitness.
	Fitness []float64
}

// GroupStage scores the group round robins (Chen 2010 §4.4.2.2 step 1, or
// §4.4.2.1). groups must partition the individuals 0..m−1 (m = the total of
// the group sizes); outcomes holds the round robin of groups[0] in
// RoundRobin order, then that of groups[1], and so on, from A's view.
// It returns an error naming the group if the partition or the number of
// outcomes is wrong.
func GroupStage(form FitnessForm, groups [][]int, outcomes []optimize.Outcome) (*Standings, error) {
	if form == "" {
		form = FitnessImproved
	}
	m := 0
	for _, g := range groups {
		m += len(g)
	}
	s := &Standings{
		Form:         form,
		Groups:       make([][]int, len(groups)),
		Group:        make([]int, m),
		GroupFitness: make([]float64, m),
		Champions:    make([]int, len(groups)),
	}
	for i := range s.Group {
		s.Group[i] = -1
	}
	at := 0
	for j, g := range groups {
		if len(g) == 0 {
			return nil, fmt.Errorf("ga: group %d is empty", j)
		}
		s.Groups[j] = append([]int(nil), g...)
		for _, i := range g {
			if i < 0 || i >= m {
				return nil, fmt.Errorf("ga: group %d: individual %d outside 0..%d", j, i, m-1)
			}
			if s.Group[i] >= 0 {
				return nil, fmt.Errorf("ga: group %d: individual %d already in group %d", j, i, s.Group[i])
			}
			s.Group[i] = j
		}
		n := len(g) * (len(g) - 1) / 2
		if at+n > len(outcomes) {
			return nil, fmt.Errorf("ga: group %d: outcomes end at %d, want %d for all groups", j, len(outcomes), at+n)
		}
		f, err := RoundRobinFitness(form, len(g), outcomes[at:at+n])
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", j, err)
		}
		at += n
		for k, i := range g {
			s.GroupFitness[i] = f[k]
		}
		s.Champions[j] = g[Champion(f)]
	}
	if at != len(outcomes) {
		return nil, fmt.Errorf("ga: got %d group outcomes, want %d", len(outcomes), at)
	}
	s.Fitness = append([]float64(nil), s.GroupFitness...)
	return s, nil
}

// EliteStage scores the elite round robin among the champions (Chen 2010
// §4.4.2.2 step 2; fitness starts at 1) and normalises every individual's
// fitness by eq. 4.5:
//
//	fitness[i] = fitness[i] · elite_fitness[j] / best_fitness[j], j = the group of i,
//
// computed in that order, so the champion of group j gets exactly
// elite_fitness[j]. outcomes are the matches of RoundRobin(len(Champions))
// over Champions, from A's view. It returns an error in the original form
// (which plays no elite round robin) or on a wrong number of outcomes.
func (s *Standings) EliteStage(outcomes []optimize.Outcome) error {
	if s.Form != FitnessImproved {
		return fmt.Errorf("ga: the elite round robin belongs to the improved fitness, not %q", s.Form)
	}
	e, err := RoundRobinFitness(FitnessImproved, len(s.Champions), outcomes)
	if err != nil {
		return fmt.Errorf("elite round robin: %w", err)
	}
	s.EliteFitness = e
	for i, f := range s.GroupFitness {
		j := s.Group[i]
		// best_fitness[j] ≥ 1 in the improved form: no division by zero.
		s.Fitness[i] = f * e[j] / s.GroupFitness[s.Champions[j]]
	}
	return nil
}
