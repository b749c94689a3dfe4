package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/pso"
	"github.com/roadtune/roadtune/results"
)

// method is what the job needs of an optimizer: one step at a time, its
// records, its best vector, its checkpoint state and its plots.
type method interface {
	unit() string // "generation" or "iteration"
	done() bool
	step(ctx context.Context, ref optimize.Referee) error
	expectedGames() int // games of the next step, at least (for progress)
	lastGames() int     // games of the step just completed
	best() (genes []float64, fitness float64, step int)
	state() (json.RawMessage, error)
	writeRecords(path string) error
	stepLine(names []string) string
	plots(dir string, names []string) ([]plotRef, error)
	summary(names []string) []string // report lines
}

func newMethod(j *job, pcg *rand.PCG) (method, error) {
	switch j.cfg.Method {
	case "ga":
		c := j.gaConfig()
		g, err := ga.New(c, pcg)
		if err != nil {
			return nil, err
		}
		return &gaMethod{g: g, cfg: c, pairs: j.cfg.Match.Pairs}, nil
	case "pso":
		c := j.psoConfig()
		p, err := pso.New(c, pcg)
		if err != nil {
			return nil, err
		}
		return &psoMethod{p: p, cfg: c, pairs: j.cfg.Match.Pairs}, nil
	}
	return nil, fmt.Errorf("unknown method %q", j.cfg.Method)
}

// restoreMethod rebuilds the optimizer from a checkpoint and reads back the
// records of the completed steps (dropping any written after the checkpoint).
func restoreMethod(j *job, cp checkpoint) (method, error) {
	path := j.dir.Path(fileGenerations)
	switch cp.Method {
	case "ga":
		var st ga.State
		if err := json.Unmarshal(cp.State, &st); err != nil {
			return nil, fmt.Errorf("field state: %w", err)
		}
		c := j.gaConfig()
		g, err := ga.Restore(c, st)
		if err != nil {
			return nil, err
		}
		recs, err := readRecords[ga.Generation](path, cp.Steps)
		if err != nil {
			return nil, err
		}
		return &gaMethod{g: g, cfg: c, pairs: j.cfg.Match.Pairs, recs: recs}, nil
	case "pso":
		var st pso.State
		if err := json.Unmarshal(cp.State, &st); err != nil {
			return nil, fmt.Errorf("field state: %w", err)
		}
		c := j.psoConfig()
		p, err := pso.Restore(c, st)
		if err != nil {
			return nil, err
		}
		recs, err := readRecords[pso.Iteration](path, cp.Steps)
		if err != nil {
			return nil, err
		}
		return &psoMethod{p: p, cfg: c, pairs: j.cfg.Match.Pairs, recs: recs}, nil
	}
	return nil, fmt.Errorf("field method: unknown method %q", cp.Method)
}

// allRecords asks readRecords for every record.
const allRecords = -1

// readRecords reads the first n records of a generations.jsonl, or all of
// them for allRecords; a missing file is fine when n is 0.
func readRecords[T any](path string, n int) ([]T, error) {
	if n == 0 {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return nil, nil
		}
	}
	recs, err := results.ReadJSONL[T](path)
	if err != nil {
		return nil, err
	}
	if n == allRecords {
		return recs, nil
	}
	if len(recs) < n {
		return nil, fmt.Errorf("%s holds %d records but the checkpoint counts %d", path, len(recs), n)
	}
	return recs[:n], nil
}

func (j *job) gaConfig() ga.Config {
	n := len(j.names)
	c := ga.DefaultConfig(n)
	g := j.cfg.GA
	c.Population, c.Groups, c.Generations, c.Stall = g.Population, g.Groups, g.Generations, g.Stall
	c.Fitness = ga.FitnessForm(g.Fitness)
	c.Pc1, c.Pc2 = g.Pc1, g.Pc2
	c.PmMode, c.Pm, c.Pm1, c.Pm2 = ga.PmMode(g.PmMode), g.Pm, g.Pm1, g.Pm2
	c.InitLo, c.InitHi = j.geneRange(j.cfg.Init)
	c.Bounds = j.bounds()
	return c
}

func (j *job) psoConfig() pso.Config {
	n := len(j.names)
	c := pso.DefaultConfig(n)
	p := j.cfg.PSO
	c.Particles, c.Iterations, c.Stall = p.Particles, p.Iterations, p.Stall
	c.VelLo, c.VelHi, c.C1, c.C2, c.Alpha1, c.Alpha2 = p.VelLo, p.VelHi, p.C1, p.C2, p.Alpha1, p.Alpha2
	c.InitLo, c.InitHi = j.geneRange(j.cfg.Init)
	c.Bounds = j.bounds()
	c.BoundMode = pso.BoundMode(j.cfg.Bounds.Mode)
	c.VMax = nil
	if p.VMaxFraction > 0 {
		lo, hi := j.geneRange(j.cfg.Bounds.RangeConfig)
		c.VMax = make([]float64, n)
		for d := range n {
			c.VMax[d] = p.VMaxFraction * (hi[d] - lo[d])
		}
	}
	return c
}

func formatGenes(names []string, genes []float64) string {
	parts := make([]string, len(genes))
	for d, x := range genes {
		parts[d] = fmt.Sprintf("%s=%.0f", names[d], x)
	}
	return strings.Join(parts, " ")
}

// ---- GA ----

type gaMethod struct {
	g     *ga.GA
	cfg   ga.Config
	pairs int
	recs  []ga.Generation
}

func (m *gaMethod) unit() string { return "generation" }
func (m *gaMethod) done() bool   { return m.g.Done() }

func (m *gaMethod) step(ctx context.Context, ref optimize.Referee) error {
	rec, err := m.g.Step(ctx, ref)
	if err != nil {
		return err
	}
	m.recs = append(m.recs, rec)
	return nil
}

func (m *gaMethod) expectedGames() int {
	k := m.cfg.Population / m.cfg.Groups
	games := m.cfg.Groups * k * (k - 1) / 2 * 2 * m.pairs
	if m.cfg.Fitness != ga.FitnessOriginal && m.cfg.Groups > 1 {
		games += m.cfg.Groups * (m.cfg.Groups - 1) / 2 * 2 * m.pairs
	}
	return games
}

func (m *gaMethod) lastGames() int { return m.recs[len(m.recs)-1].Games }

func (m *gaMethod) best() ([]float64, float64, int) {
	if len(m.recs) == 0 {
		return nil, 0, 0
	}
	r := m.recs[len(m.recs)-1]
	return r.Best.Genes, r.Best.Fitness, r.Index
}

func (m *gaMethod) state() (json.RawMessage, error) { return json.Marshal(m.g.State()) }

func (m *gaMethod) writeRecords(path string) error { return results.WriteJSONL(path, m.recs) }

func (m *gaMethod) stepLine(names []string) string {
	r := m.recs[len(m.recs)-1]
	lo, mean, _ := fitnessStats(r)
	return fmt.Sprintf("generation %3d: best %.2f mean %.2f min %.2f diversity %.0f, %d games in %.1fs (%.1f games/s) | best %s",
		r.Index, r.Best.Fitness, mean, lo, r.Diversity.MeanDistance, r.Games, r.Seconds, float64(r.Games)/max(r.Seconds, 1e-9), formatGenes(names, r.Best.Genes))
}

// fitnessStats is min, mean and max normalised fitness of a generation.
func fitnessStats(r ga.Generation) (lo, mean, hi float64) {
	if len(r.Individuals) == 0 {
		return 0, 0, 0
	}
	lo, hi = r.Individuals[0].Fitness, r.Individuals[0].Fitness
	for _, ind := range r.Individuals {
		lo, hi = min(lo, ind.Fitness), max(hi, ind.Fitness)
		mean += ind.Fitness
	}
	return lo, mean / float64(len(r.Individuals)), hi
}

func (m *gaMethod) summary(names []string) []string {
	if len(m.recs) == 0 {
		return nil
	}
	r := m.recs[len(m.recs)-1]
	return []string{
		fmt.Sprintf("GA, %s fitness, %d individuals in %d groups, %d generations run, %d game pair(s) per pairing.", m.cfg.Fitness, m.cfg.Population, m.cfg.Groups, len(m.recs), m.pairs),
		fmt.Sprintf("Best of the last generation (%d): fitness %.3f (elite round robin, not comparable across generations).", r.Index, r.Best.Fitness),
	}
}

// ---- PSO ----

type psoMethod struct {
	p     *pso.PSO
	cfg   pso.Config
	pairs int
	recs  []pso.Iteration
}

func (m *psoMethod) unit() string { return "iteration" }
func (m *psoMethod) done() bool   { return m.p.Done() }

func (m *psoMethod) step(ctx context.Context, ref optimize.Referee) error {
	rec, err := m.p.Step(ctx, ref)
	if err != nil {
		return err
	}
	m.recs = append(m.recs, rec)
	return nil
}

func (m *psoMethod) expectedGames() int {
	g := m.cfg.Particles * 2 * m.pairs
	if len(m.recs) == 0 {
		g += (m.cfg.Particles - 1) * 2 * m.pairs // the knockout
	}
	return g
}

func (m *psoMethod) lastGames() int { return m.recs[len(m.recs)-1].Games }

// best is the global best; its "fitness" is the share of this iteration's
// challenges it survived, as PSO has no fitness values (Chen 2010 §5.3).
func (m *psoMethod) best() ([]float64, float64, int) {
	if len(m.recs) == 0 {
		return nil, 0, 0
	}
	r := m.recs[len(m.recs)-1]
	return r.GlobalBest, 0, r.Index
}

func (m *psoMethod) state() (json.RawMessage, error) { return json.Marshal(m.p.State()) }

func (m *psoMethod) writeRecords(path string) error { return results.WriteJSONL(path, m.recs) }

// improvements counts the personal bests replaced and the global-best
// challenges won in an iteration.
func improvements(r pso.Iteration) (personal, global int) {
	for _, mr := range r.Matches {
		if !mr.ChallengerWon {
			continue
		}
		switch mr.Kind {
		case pso.PersonalMatch:
			personal++
		case pso.GlobalMatch:
			global++
		}
	}
	return personal, global
}

func (m *psoMethod) stepLine(names []string) string {
	r := m.recs[len(m.recs)-1]
	pb, gb := improvements(r)
	return fmt.Sprintf("iteration %3d: w %.3f k %.3f mean/max focus %.0f/%.0f, %d new personal bests, %d global, %d games in %.1fs (%.1f games/s) | g %s",
		r.Index, r.W, r.K, r.MeanDist, r.MaxDist, pb, gb, r.Games, r.WallSeconds, float64(r.Games)/max(r.WallSeconds, 1e-9), formatGenes(names, r.GlobalBest))
}

func (m *psoMethod) summary(names []string) []string {
	return []string{
		fmt.Sprintf("PSO, %d particles, %d iterations run, bounds %s, %d game pair(s) per match.", m.cfg.Particles, len(m.recs), m.cfg.BoundMode, m.pairs),
	}
}
