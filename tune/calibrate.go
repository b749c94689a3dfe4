// This file holds the calibration of a budgeted run (Config.Budget): a
// short sample of real games on this machine before anything is written,
// with the job's referee at the tuning settings and through the ladder's
// own path at each of the ladder's settings (and the Elo measurements'),
// giving the seconds a game takes at each; for Texel, one timed fit of the
// sample's positions gives the seconds a fit takes per position. Its
// vectors and openings come from sources seeded by the run's seed and
// calibrationSeed, never from the run's own stream.

package tune

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/roadtune/roadtune/tune/budget"
	"github.com/roadtune/roadtune/tune/ladder"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/texel"
)

// calibrationSeed separates the calibration's vectors and openings from
// the run's.
const calibrationSeed = 0x63616c6962 // "calib"

// ladderTime is the seconds and games of c's ladder at the calibration's
// seconds per game: every rung played out.
func (c *Config) ladderTime(cal *budget.Calibration) (seconds float64, games int) {
	ats, width, err := c.ladderAts()
	if len(c.Validation.Opponents) == 0 || err != nil {
		return 0, 0
	}
	texts := make([]string, len(ats))
	for i, a := range ats {
		texts[i] = a.Text(width)
	}
	return cal.LadderTime(texts, 2*c.Validation.Pairs*len(c.Validation.Opponents))
}

// calEloSeconds is one Elo measurement's seconds at the calibration's
// seconds per game (0 without elo_every).
func (c *Config) calEloSeconds(cal *budget.Calibration) float64 {
	if c.Validation.EloEvery <= 0 {
		return 0
	}
	return cal.EloSeconds(c.Validation.EloPairs)
}

// ladderAts is the settings of c's ladder's rungs (ladder.Ats), with its
// width.
func (c *Config) ladderAts() ([]ladder.At, int, error) {
	depths, width := c.ladderDepths()
	clocks, err := c.ladderClocks()
	return ladder.Ats(depths, clocks, c.Engine.Depth), width, err
}

// Calibrate plays the calibration of cfg (validated, with a budget) with
// opts' referee (the in-process engine's when nil) and clock, writing
// nothing: the run's files are not there yet. It returns the seconds a
// game takes at the tuning settings and at each of the ladder's (and, for
// Texel, a fit's seconds per position), the sample's own seconds
// included. Events.Calibrate is told of its most games, Events.Games of
// each batch. Errors: an unknown method, the referee's and the ladder's,
// ctx's when cancelled.
func Calibrate(ctx context.Context, cfg Config, opts Options) (*budget.Calibration, error) {
	spec, err := cfg.Spec()
	if err != nil {
		return nil, err
	}
	clock := opts.Now
	t0 := clock()
	cj := &Job{cfg: cfg, spec: spec, opts: opts}
	if cfg.External != nil {
		// The external engine's values files: a folder of the
		// calibration's own, removed after it.
		tmp, err := os.MkdirTemp("", "roadtune-calibration-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		cj.cfg.externalFileDir = tmp
	}
	ref := opts.Referee
	if ref == nil {
		vr, err := NewReferee(cj.cfg)
		if err != nil {
			return nil, err
		}
		vr.Progress = opts.Events.Games
		ref = vr
		defer func() {
			if c, ok := ref.(interface{ Close() error }); ok {
				c.Close()
			}
		}()
	}
	all, width, err := cfg.ladderAts()
	if err != nil {
		return nil, err
	}
	var ats []ladder.At // distinct, in order
	for _, a := range all {
		if !slices.Contains(ats, a) && len(cfg.Validation.Opponents) > 0 {
			ats = append(ats, a)
		}
	}
	elo := cfg.Validation.EloEvery > 0
	eloAt := ladder.At{Depth: cfg.EloDepth()}
	eloShared := width == cfg.Engine.Width && slices.Contains(ats, eloAt)
	secs, _ := cfg.BudgetSeconds()
	limitSeconds, limitGames := budget.SampleLimits(secs)
	if opts.Events.Calibrate != nil {
		n := 1 + len(ats)
		if elo && !eloShared {
			n++
		}
		opts.Events.Calibrate(n * limitGames)
	}
	conc := cfg.Concurrency
	if conc <= 0 {
		conc = runtime.GOMAXPROCS(0)
	}
	p := cfg.Problem()
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), calibrationSeed))
	draw := func() []float64 { return optimize.UniformPopulation(rng, 1, p.InitLo, p.InitHi)[0] }
	cal := &budget.Calibration{}

	// The fitness games: the job's referee at the tuning settings, a
	// batch of matches between vectors drawn from [init] to fill the
	// cores; Texel's through Sample, which also gives its positions.
	cal.Fitness.At = fmt.Sprintf("depth %d, width %d", cfg.Engine.Depth, cfg.Engine.Width)
	if tc, err := cfg.clock(); err == nil && !tc.IsZero() {
		cal.Fitness.At = fmt.Sprintf("%s, depth %d", tc, cfg.Engine.Depth)
	}
	ts := cfg.texelSettings()
	smp, sampling := ref.(optimize.Sampler)
	sampling = sampling && ts != nil
	// The method's own first matches (vectors drawn from [init] when it
	// asks for none), cycled, in batches as large as its first (games at
	// once cost less a game than a few), between one per core and
	// sampleGames.
	first := firstMatches(ctx, cfg, spec)
	if len(first) == 0 {
		first = []optimize.Match{{A: draw(), B: draw()}}
	}
	per := 2 * cfg.Match.Pairs
	batch := max(conc, 2, min(len(first)*per, limitGames)/per)
	var positions []optimize.Position
	for k := 0; cal.Fitness.Seconds < limitSeconds && cal.Fitness.Games < limitGames; k++ {
		var ms []optimize.Match
		for i := range batch {
			ms = append(ms, first[(k*batch+i)%len(first)])
		}
		seed := uint64(cfg.Seed) ^ calibrationSeed ^ uint64(k+1)*ladder.SeedMix
		start := clock()
		var out []optimize.Outcome
		var pos []optimize.Position
		if sampling {
			out, pos, err = smp.Sample(ctx, seed, ms)
		} else {
			out, err = optimize.Play(ctx, ref, seed, ms)
		}
		if err != nil {
			return nil, fmt.Errorf("calibration: %w", err)
		}
		cal.Fitness.Seconds += clock().Sub(start).Seconds()
		cal.Fitness.Games += optimize.CountGames(out)
		positions = append(positions, pos...)
		if optimize.CountGames(out) == 0 {
			break
		}
	}
	if sampling && len(positions) > 0 && cal.Fitness.Games > 0 {
		cal.PositionsPerGame = float64(len(positions)) / float64(cal.Fitness.Games) * (1 - 1/float64(max(ts.HoldoutEvery, 2)))
		cal.FitSecondsPerPosition = timeFit(cfg, ts, positions, draw(), clock)
	}

	// The ladder's settings (and the Elo measurements'), through the
	// ladder's own path: a vector of the method's first matches against
	// the first fixed opponent.
	lr := cj.ladderRun()
	a, err := lr.Player("tuned", "a vector of the calibration", first[0].A)
	if err != nil {
		return nil, err
	}
	b, err := lr.Opponent(cfg.EloOpponent())
	if cfg.EloOpponent() == "" || err != nil {
		if b, err = lr.Player("other", "a vector drawn for the calibration", draw()); err != nil {
			return nil, err
		}
	}
	play := func(at ladder.At, w int, n uint64) (budget.Sample, error) {
		s := budget.Sample{At: at.Text(w)}
		for k := uint64(0); s.Seconds < limitSeconds && s.Games < limitGames; k++ {
			start := clock()
			sum, _, err := lr.Play(ctx, ladder.Match{A: a, B: b, Depth: at.Depth, Width: w, Clock: at.Clock, Pairs: max(conc, 1),
				Seed: uint64(cfg.Seed) ^ calibrationSeed ^ (n<<8+k+1)*ladder.SeedMix, Progress: opts.Events.Games})
			if err != nil {
				return s, fmt.Errorf("calibration at %s: %w", s.At, err)
			}
			s.Seconds += clock().Sub(start).Seconds()
			s.Games += sum.Matchups[0].N
		}
		return s, nil
	}
	for i, at := range ats {
		s, err := play(at, width, uint64(i+1))
		if err != nil {
			return nil, err
		}
		cal.Ladder = append(cal.Ladder, s)
	}
	if elo {
		s := budget.Sample{}
		if eloShared {
			s = cal.Ladder[slices.Index(ats, eloAt)]
		} else if s, err = play(eloAt, cfg.Engine.Width, 0); err != nil {
			return nil, err
		}
		cal.Elo = &s
	}
	cal.Seconds = clock().Sub(t0).Seconds()
	return cal, nil
}

// firstMatches are the matches a trial of the method asks for first,
// made with a source of the calibration's own (the run's stream is not
// touched): its vectors as the run's first step plays them (its
// population, its search space, its norm). The trial's games are answered
// without playing (draws, no positions) and the trial is thrown away, its
// error too (Texel finds no positions); nil when it asks for none.
func firstMatches(ctx context.Context, cfg Config, spec optimize.Spec) (ms []optimize.Match) {
	m, err := cfg.newMethod(spec, rand.NewPCG(uint64(cfg.Seed), calibrationSeed))
	if err != nil {
		return nil
	}
	c := &captureReferee{pairs: cfg.Match.Pairs}
	defer func() {
		if recover() != nil { // a method that cannot take draws: the drawn vectors serve
			ms = nil
		}
	}()
	_, _ = m.Step(ctx, c)
	return c.matches
}

// captureReferee keeps the matches of the first call and answers every
// call with draws, playing nothing.
type captureReferee struct {
	pairs   int
	matches []optimize.Match
}

func (c *captureReferee) Play(_ context.Context, _ uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	if c.matches == nil {
		for _, m := range ms {
			c.matches = append(c.matches, optimize.Match{A: slices.Clone(m.A), B: slices.Clone(m.B)})
		}
	}
	out := make([]optimize.Outcome, len(ms))
	for i := range out {
		out[i].Draws = 2 * c.pairs
	}
	return out, nil
}

func (c *captureReferee) Sample(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	out, err := c.Play(ctx, seed, ms)
	return out, nil, err
}

// timeFit times one Texel fit of the positions' training share, repeated
// up to budget.FitPositions, and returns its seconds per position (0 when the
// fit fails on the calibration's positions: the run's own fits are then
// measured as it goes).
func timeFit(cfg Config, s *texel.Settings, positions []optimize.Position, start []float64, clock func() time.Time) float64 {
	var all []optimize.Position
	for len(all) < budget.FitPositions {
		all = append(all, positions...)
	}
	p := cfg.Problem()
	scale := make([]float64, len(start))
	for d := range scale {
		scale[d] = max(p.InitHi[d]-p.InitLo[d], 1)
	}
	opt := texel.FitOptions{Ridge: s.Ridge}
	if cfg.Bounds.Mode.Enforced() {
		opt.Bounds = p.Bounds
	}
	t := clock()
	if _, err := texel.Fit(all, start, scale, opt); err != nil {
		return 0
	}
	return clock().Sub(t).Seconds() / float64(len(all))
}
