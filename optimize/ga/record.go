package ga

import (
	"math"

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

// Diversity measures how spread out a population is.
type Diversity struct {
	// MeanDistance is the mean Euclidean distance over all m(m−1)/2 pairs
	// of individuals, in gene units.
	MeanDistance float64 `json:"mean_distance"`
	// GeneStd[d] is the population standard deviation (divisor m) of gene d.
	GeneStd []float64 `json:"gene_std"`
}

// PopulationDiversity computes the Diversity of a population of equal-length
// vectors. An empty population has zero diversity and no genes.
func PopulationDiversity(pop [][]float64) Diversity {
	m := len(pop)
	if m == 0 {
		return Diversity{}
	}
	genes := len(pop[0])
	dv := Diversity{GeneStd: make([]float64, genes)}
	if m > 1 {
		s := 0.0
		for i := range pop {
			for j := i + 1; j < m; j++ {
				s += optimize.Distance(pop[i], pop[j])
			}
		}
		dv.MeanDistance = s / float64(m*(m-1)/2)
	}
	for d := range genes {
		mean := 0.0
		for _, x := range pop {
			mean += x[d]
		}
		mean /= float64(m)
		v := 0.0
		for _, x := range pop {
			e := x[d] - mean
			v += e * e
		}
		dv.GeneStd[d] = math.Sqrt(v / float64(m))
	}
	return dv
}

// Generation is the record of one evaluated generation. It is JSON
// serialisable; a run resumed from a State produces the same records as an
// uninterrupted one except for Seconds.
type Generation struct {
	// Index is the generation number, 0 for the initial population.
	Index int         `json:"index"`
	Form  FitnessForm `json:"form"`
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
	Diversity Diversity `json:"diversity"`
	// Games is the number of games played for this generation.
	Games int `json:"games"`
	// Seeds are the batch seeds handed to the referee: the group round
	// robins', then (improved form with at least 2 groups) the elite round
	// robin's.
	Seeds []uint64 `json:"seeds"`
	// Seconds is the wall time of the generation, in seconds.
	Seconds float64 `json:"seconds"`
}
