package ga

import (
	"fmt"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Individual is one member of an evaluated generation.
type Individual struct {
	// Genes is the weight vector, in the schema's gene order.
	Genes []float64 `json:"genes"`
	// Group is the tournament group the individual played in (0-based).
	Group int `json:"group"`
	// GroupFitness is the raw fitness from the group round robin.
	GroupFitness float64 `json:"group_fitness"`
	// Fitness is the fitness selection used: eq. 4.5 in the improved form,
	// GroupFitness in the original form.
	Fitness float64 `json:"fitness"`
	// Champion marks the winner of its group.
	Champion bool `json:"champion,omitempty"`
	// EliteFitness is a champion's elite round robin fitness (improved form;
	// ≥ 1, so it is omitted only where it does not exist).
	EliteFitness float64 `json:"elite_fitness,omitempty"`
}

// Best is the best individual of a generation: the champion with the
// highest Fitness (ties to the lower group number). In the improved form its
// Fitness is its elite round robin fitness. Fitness from different
// generations comes from different tournaments and is not comparable.
type Best struct {
	// Index is the individual's place in its generation's population.
	Index   int       `json:"index"`
	Genes   []float64 `json:"genes"`
	Fitness float64   `json:"fitness"`
}

// Rates summarises the crossover or mutation probabilities used while
// breeding one generation: N values (one per pair for Pc, one per child
// for Pm), their mean, least and greatest.
type Rates struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

func (r *Rates) add(p float64) {
	if r.N == 0 {
		r.Min, r.Max = p, p
	}
	r.Mean += (p - r.Mean) / float64(r.N+1)
	r.Min = min(r.Min, p)
	r.Max = max(r.Max, p)
	r.N++
}

// Generation is the GA's own record of one evaluated generation, the Detail
// of its optimize.Record (which carries the generation's index, games and
// wall time). It is JSON serialisable; a run resumed from a State produces
// the same records as an uninterrupted one.
type Generation struct {
	Form FitnessForm `json:"form"`
	// Individuals is the population that played, in population order
	// (champions of the previous generation first, then its children).
	Individuals []Individual `json:"individuals"`
	Best        Best         `json:"best"`
	// Pc are the crossover probabilities used, one per parent pair (eq. 4.3);
	// Pm the mutation probabilities, one per child (fixed or eq. 4.4).
	Pc Rates `json:"pc"`
	Pm Rates `json:"pm"`
	// Crossovers counts the pairs that crossed; Mutations the genes mutated
	// over all children.
	Crossovers int `json:"crossovers"`
	Mutations  int `json:"mutations"`
	// Diversity is that of Individuals.
	Diversity optimize.Diversity `json:"diversity"`
	// Seeds are the batch seeds handed to the referee: the group round
	// robins', then (improved form with at least 2 groups) the elite round
	// robin's.
	Seeds []uint64 `json:"seeds"`
}

// record wraps the generation in its optimize.Record: step is its index,
// games the games it played. See GA.Step for the metrics.
func (gen Generation) record(step, games int) optimize.Record {
	lo, mean := 0.0, 0.0
	for i, ind := range gen.Individuals {
		if i == 0 || ind.Fitness < lo {
			lo = ind.Fitness
		}
		mean += ind.Fitness
	}
	if len(gen.Individuals) > 0 {
		mean /= float64(len(gen.Individuals))
	}
	return optimize.Record{
		Step:  step,
		Games: games,
		Best:  slices.Clone(gen.Best.Genes),
		Metrics: map[string]float64{
			"fitness":      gen.Best.Fitness,
			"fitness_mean": mean,
			"fitness_min":  lo,
			"diversity":    gen.Diversity.MeanDistance,
			"gene_std":     gen.Diversity.MeanGeneStd(),
			"pc_mean":      gen.Pc.Mean,
			"pm_mean":      gen.Pm.Mean,
		},
		Detail: gen,
		Line: fmt.Sprintf("best %.2f mean %.2f min %.2f diversity %.0f",
			gen.Best.Fitness, mean, lo, gen.Diversity.MeanDistance),
	}
}
