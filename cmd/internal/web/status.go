package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Status is a run's status, the JSON of /run/ID/status.json and of each
// event of /run/ID/events.
type Status struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // "tune", "arena", or a group of runs: "chain", "sweep"
	// Group is the ID of the chain or sweep the run belongs to ("" for
	// none); Members are a group's runs' IDs, in order, for the stages or
	// seeds started so far.
	Group   string   `json:"group,omitempty"`
	Members []string `json:"members,omitempty"`
	// Method is a tuning run's method ("ga", "pso", …), a match's schedule
	// ("head-to-head", "round-robin", …).
	Method string `json:"method"`
	Unit   string `json:"unit,omitempty"` // a tuning run's step: "generation", "iteration"
	// Phase is a tuning run's "starting", "optimize", "verify", "done" or
	// "interrupted" (not done, and no process plays it: -resume continues
	// it); a match's "starting", "playing", "done" or "interrupted"; a
	// group's "done" when every run is, else the phase of the run in play,
	// else "interrupted"; "broken" for a run whose files are refused
	// (Error says why).
	Phase string `json:"phase"`
	// Step of Steps: steps completed of the method's budget (tuning runs);
	// a group's runs done (or in play) of its runs.
	Step  int `json:"step"`
	Steps int `json:"steps"`
	// Games played: a tuning run's optimisation games, a match's games;
	// TotalGames is a match's games scheduled (0 when unknown: knockout).
	Games      int `json:"games"`
	TotalGames int `json:"total_games,omitempty"`
	// GamesPerSecond and ETA (seconds, 0 when unknown or done) at the rate
	// so far.
	GamesPerSecond float64 `json:"games_per_second"`
	ETASeconds     float64 `json:"eta_seconds"`
	// BatchDone of BatchTotal games of the batch in flight (live runs).
	BatchDone  int `json:"batch_done,omitempty"`
	BatchTotal int `json:"batch_total,omitempty"`
	// Verdict is the verification ladder's verdict line, once played.
	Verdict string `json:"verdict,omitempty"`
	// Live is set when the status comes from the process playing the run.
	Live bool `json:"live"`
	// Version changes whenever the run's files change: the page then
	// reloads its charts and tables.
	Version string    `json:"version"`
	Updated time.Time `json:"updated"`
	// Error says why the run's files could not be read (a run just
	// started, a damaged file).
	Error string `json:"error,omitempty"`
	// The status in words, for the page: "step 3 of 10" (or "game 40 of
	// 100"), "12.50" games/s, "1m30s" (or "—"), "40/120" of the batch (or
	// "—").
	StepText  string `json:"step_text"`
	RateText  string `json:"rate_text"`
	ETAText   string `json:"eta_text"`
	BatchText string `json:"batch_text"`
	// End is a budgeted tuning run's planned end (zero for none), EndText
	// it as a time of day for the page ("planned end 06:00") while the run
	// goes on, "" otherwise.
	End     time.Time `json:"end,omitzero"`
	EndText string    `json:"end_text,omitempty"`
}

// texts fills in the status in words: StepText "step K of N" (a tuning
// run) or "game K of N" (a match), RateText the games per second, ETAText
// the time left ("1h2m3s", "—" when unknown), BatchText "done/total".
func (st *Status) texts() {
	switch {
	case st.Kind == kindChain:
		st.StepText = fmt.Sprintf("stage %d of %d", st.Step, st.Steps)
	case st.Kind == kindSweep:
		st.StepText = fmt.Sprintf("seed %d of %d", st.Step, st.Steps)
	case st.Kind != kindArena:
		st.StepText = fmt.Sprintf("step %d of %d", st.Step, st.Steps)
	case st.TotalGames > 0:
		st.StepText = fmt.Sprintf("game %d of %d", st.Games, st.TotalGames)
	default:
		st.StepText = fmt.Sprintf("game %d", st.Games)
	}
	st.RateText = fmt.Sprintf("%.2f", st.GamesPerSecond)
	st.ETAText = "—"
	if st.ETASeconds > 0 {
		st.ETAText = time.Duration(st.ETASeconds * float64(time.Second)).Round(time.Second).String()
	}
	st.BatchText = "—"
	if st.BatchTotal > 0 {
		st.BatchText = fmt.Sprintf("%d/%d", st.BatchDone, st.BatchTotal)
	}
	st.EndText = ""
	if !st.End.IsZero() && st.Phase != "done" && st.Phase != "interrupted" {
		st.EndText = "planned end " + progress.TimeOfDay(st.End, time.Now())
	}
}

// statusCache is a run's status from its files at one fingerprint.
type statusCache struct {
	fp string
	st Status
}

// watched are the files whose change changes a run's status or pages.
func (r *run) watched() []string {
	if r.kind == kindTune {
		return append(slices.Clone(r.tune.Files()), "games")
	}
	return []string{commandFile, planFile, arenaGameLog, summaryFile, "winrate.svg"}
}

// fingerprint sums up the sizes and times of r's watched files.
func (r *run) fingerprint(root *os.Root) string {
	h := fnv.New64a()
	for _, name := range r.watched() {
		if fi, err := root.Stat(name); err == nil {
			fmt.Fprintf(h, "%s:%d:%d;", name, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// status returns r's status: from its files (cached until they change),
// with the Live provider's figures over them when it reports on r.
func (s *Server) status(r *run) Status {
	if r.isGroup() {
		return s.groupStatus(r)
	}
	st := s.runStatus(r)
	if r.parent != nil {
		st.Group = r.parent.id
	}
	return st
}

// runStatus is status of a run (not a group).
func (s *Server) runStatus(r *run) Status {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return Status{ID: r.id, Kind: r.kind, Phase: "starting", Error: err.Error(), Updated: time.Now()}
	}
	defer root.Close()
	fp := r.fingerprint(root)
	r.mu.Lock()
	var st Status
	if c := r.status; c != nil && c.fp == fp {
		st = c.st
	} else {
		st = r.fileStatus(root)
		st.ID, st.Kind, st.Version, st.Updated = r.id, r.kind, fp, time.Now()
		r.status = &statusCache{fp: fp, st: st}
	}
	r.mu.Unlock()
	l, live := s.live(r)
	if st.Phase != "done" && st.Phase != "broken" && st.Phase != "interrupted" && !live && !results.Running(r.dir) {
		// No file changes when a process dies: asked each time, for a
		// tuning run and an arena match alike (results.FileRunning).
		st.Phase, st.ETASeconds = "interrupted", 0
	}
	if live {
		st.Live, st.Updated = true, l.Updated
		switch {
		case l.Phase != "" && st.Phase != "done":
			st.Phase = l.Phase
		case st.Phase == "interrupted": // the process has not reported yet
			st.Phase = "starting"
		}
		if l.Steps > 0 {
			st.Step, st.Steps = l.Step, l.Steps
		}
		if r.kind == kindArena && l.BatchTotal > 0 {
			st.TotalGames = l.BatchTotal
		}
		st.Games, st.GamesPerSecond, st.ETASeconds = max(st.Games, l.Games), l.GamesPerSecond, l.ETA.Seconds()
		st.BatchDone, st.BatchTotal = l.BatchDone, l.BatchTotal
		if !l.End.IsZero() {
			st.End = l.End
		}
		if len(l.Rungs) > 0 {
			st.Version += fmt.Sprintf(".r%d", len(l.Rungs)) // the page reloads its ladder
		}
	}
	st.texts()
	return st
}

// fileStatus is r's status from its files (tuneStatus, arenaStatus). A
// reader that panics on a run's files makes that run's status an error,
// so that one bad run does not take down the pages of the others. Call
// with r.mu held.
func (r *run) fileStatus(root *os.Root) (st Status) {
	defer func() {
		if p := recover(); p != nil {
			st = Status{Phase: "broken", Error: fmt.Sprintf("internal error reading the run's files: %v; please report it", p)}
		}
	}()
	if r.kind == kindTune {
		return r.tuneStatus()
	}
	return r.arenaStatus(root)
}

// tuneStatus is a tuning run's status from its files (TuneRuns.Open):
// the steps checkpointed of the method's budget, the optimisation games,
// their rate and the time the steps left take at the mean step time so
// far.
func (r *run) tuneStatus() Status {
	res, err := r.tune.Open(r.dir)
	if err != nil {
		st := Status{Phase: "starting"}
		if !errors.Is(err, fs.ErrNotExist) {
			st.Phase, st.Error = "broken", err.Error()
		}
		return st
	}
	st := Status{Method: res.Method, Unit: res.Unit, Phase: res.Phase,
		Step: res.Status.Steps, Games: res.Status.Games, End: res.End}
	st.Steps = res.Budget
	if res.Phase != "optimize" || st.Steps < st.Step {
		st.Steps = st.Step // the optimisation is over, by the budget or the stall rule
	}
	if sec := res.Status.Seconds; sec > 0 {
		st.GamesPerSecond = float64(st.Games) / sec
		if res.Phase == "optimize" && st.Step > 0 {
			st.ETASeconds = float64(st.Steps-st.Step) * sec / float64(st.Step)
		}
	}
	if rungs, verdict, err := r.tune.Ladder(r.dir); err == nil && len(rungs) > 0 {
		st.Verdict = verdict
	}
	return st
}

// readSummary reads an arena match's summary.json; ok is false when the
// match has none yet.
func readSummary(root *os.Root) (sum tournament.Summary, ok bool, err error) {
	data, err := fileio.ReadFileIn(root, summaryFile, fileio.Report)
	if errors.Is(err, fs.ErrNotExist) {
		return sum, false, nil
	}
	if err != nil {
		return sum, false, err
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return sum, false, fmt.Errorf("%s: %w", summaryFile, err)
	}
	return sum, true, nil
}

// arenaStatus is a match's status from its files: summary.json once
// written; before that the games in games.jsonl of the games plan.json
// (or, for an older match, the saved command line) schedules, at the rate from command.json's time to the
// log's last write. Call with r.mu held.
func (r *run) arenaStatus(root *os.Root) Status {
	st := Status{Phase: "starting"}
	sum, done, err := readSummary(root)
	if err != nil {
		st.Error = err.Error()
	}
	if done {
		st.Method, st.Games, st.Phase = sum.Schedule, sum.Games, "done"
		if sum.Interrupted {
			st.Phase = "interrupted"
		}
		if sum.Seconds > 0 {
			st.GamesPerSecond = float64(sum.Games-sum.Resumed) / sum.Seconds
		}
		st.TotalGames = arenaPlan(root).total // more than Games when an SPRT or Ctrl-C stopped the match
		return st
	}
	p := arenaPlan(root)
	st.Method, st.TotalGames = p.schedule, p.total
	if p.err != nil && st.Error == "" {
		st.Error = p.err.Error()
	}
	g := r.logFor(arenaGameLog)
	if err := g.update(root); err != nil {
		st.Error = err.Error()
	}
	st.Games = len(g.offsets)
	if st.Games > 0 {
		st.Phase = "playing"
		cmd, err1 := root.Stat(commandFile)
		log, err2 := root.Stat(arenaGameLog)
		if err1 == nil && err2 == nil {
			if el := log.ModTime().Sub(cmd.ModTime()).Seconds(); el > 0 {
				st.GamesPerSecond = float64(st.Games) / el
				if st.TotalGames > st.Games {
					st.ETASeconds = float64(st.TotalGames-st.Games) / st.GamesPerSecond
				}
			}
		}
	}
	return st
}

// plan is what an arena match schedules.
type plan struct {
	args     []string // the command line saved in command.json (for the page; -resume's)
	head     tournament.Summary
	schedule string
	pairs    int                     // game pairs per pairing
	total    int                     // games; 0 when unknown (a knockout)
	sprt     *tournament.SPRTSummary // the test and its bounds; nil without one
	err      error                   // why plan.json, or the saved -sprt, could not be read
}

// arenaPlan is the plan of the match in root: plan.json
// (tournament.MatchPlan), which arena writes when a match starts. A match
// written before arena wrote plan.json has only its command line: then the
// plan is worked out from command.json (commandPlan), which knows the
// schedule, the pairs, the games and the test but not the players' settings
// or the openings.
func arenaPlan(root *os.Root) plan {
	var p plan
	if data, err := fileio.ReadFileIn(root, commandFile, fileio.Config); err == nil {
		var c struct {
			Args []string `json:"args"`
		}
		if json.Unmarshal(data, &c) == nil {
			p.args = c.Args
		}
	}
	data, err := fileio.ReadFileIn(root, planFile, fileio.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return commandPlan(p.args)
	}
	var mp tournament.MatchPlan
	if err == nil {
		if err = json.Unmarshal(data, &mp); err != nil {
			err = fmt.Errorf("%s: %w", planFile, err)
		}
	}
	if err != nil {
		p = commandPlan(p.args)
		p.err = err
		return p
	}
	p.head, p.schedule, p.pairs, p.total, p.sprt = mp.Header(), mp.Schedule, mp.Pairs, mp.Games, mp.SPRT
	return p
}

// commandPlan works out the plan from an arena command line, for matches
// written before plan.json (arenaPlan): the players (WEIGHTS arguments and
// -engine options), the pairs per pairing (-pairs, -rounds, -games/2,
// default 10), the pairings of the schedule and -sprt. It reads the flags
// the way arena did then, from a list of their names, without running it:
// a line it cannot read gives what it could.
func commandPlan(args []string) plan {
	p := plan{args: args}
	pairs := 10
	value := map[string]bool{"pairs": true, "rounds": true, "games": true, "depth": true, "width": true,
		"concurrency": true, "openings": true, "random-openings": true, "seed": true, "sprt": true, "movetime": true,
		"maxmoves": true, "out": true, "tournament": true, "ratinginterval": true, "log": true, "http": true}
	sprt := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.head.Players = append(p.head.Players, make([]tournament.PlayerInfo, len(args)-i-1)...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.head.Players = append(p.head.Players, tournament.PlayerInfo{})
			continue
		}
		name, v, hasV := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "engine" || name == "each" || name == "openings" && i+1 < len(args) && strings.Contains(args[i+1], "="):
			n := 0
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && strings.Contains(args[i+1], "=") {
				i, n = i+1, n+1
			}
			if name == "engine" {
				if n == 0 && i+1 < len(args) {
					i++ // the short form: one command line
				}
				p.head.Players = append(p.head.Players, tournament.PlayerInfo{})
			}
			continue
		case !value[name] || hasV:
		case i+1 < len(args):
			i++
			v = args[i]
		}
		n, err := strconv.Atoi(v)
		switch {
		case name == "tournament":
			p.schedule = v
		case name == "sprt":
			sprt = v
		case err != nil:
		case name == "pairs", name == "rounds":
			pairs = n
		case name == "games":
			pairs = n / 2
		}
	}
	players := len(p.head.Players)
	p.head.Players = nil // their names and settings are not on the command line
	if p.schedule == "" {
		p.schedule = "round-robin"
		if players == 2 {
			p.schedule = "head-to-head"
		}
	}
	pairings := 0
	switch p.schedule {
	case "head-to-head":
		pairings = 1
	case "round-robin":
		pairings = players * (players - 1) / 2
	case "gauntlet":
		pairings = players - 1
	}
	p.pairs = pairs
	p.total = 2 * pairs * max(pairings, 0)
	p.head.Schedule, p.head.Pairs = p.schedule, p.pairs
	if sprt != "" {
		s, err := stats.ParseSPRT(sprt)
		if err != nil {
			p.err = fmt.Errorf("%s: -sprt %s: %w", commandFile, sprt, err)
		} else {
			p.sprt = tournament.NewMatchPlan(tournament.Summary{}, 0, &s).SPRT
		}
	}
	return p
}

// groupStatus is a chain's or sweep's status from its runs': the games
// played by all, the phase (done when every planned run is, else the
// phase of the first run not done, "interrupted" when that one is or has
// not started while nothing plays), which run of how many it is at, and
// the rate, ETA and batch of the run in play. A chain's method is its
// stages' methods joined by " → "; its verdict the last stage's.
func (s *Server) groupStatus(r *run) Status {
	st := Status{ID: r.id, Kind: r.kind, Steps: len(r.planned), Phase: "done", Updated: time.Now()}
	if r.parent != nil {
		st.Group = r.parent.id
	}
	children := s.children(r)
	h := fnv.New64a()
	var methods []string
	atRun := false
	for i, dir := range r.planned {
		c := children[dir]
		if c == nil {
			methods = append(methods, stageMethod(dir))
			if !atRun {
				st.Phase, st.Step, atRun = "interrupted", i+1, true
			}
			continue
		}
		cs := s.status(c)
		st.Members = append(st.Members, c.id)
		fmt.Fprintf(h, "%s:%s;", c.id, cs.Version)
		methods = append(methods, cs.Method)
		st.Games += cs.Games
		st.Live = st.Live || cs.Live
		if cs.Phase == "done" {
			st.Verdict = cs.Verdict
			continue
		}
		if !atRun {
			st.Phase, st.Step, atRun = cs.Phase, i+1, true
			st.GamesPerSecond, st.ETASeconds, st.BatchDone, st.BatchTotal, st.End = cs.GamesPerSecond, cs.ETASeconds, cs.BatchDone, cs.BatchTotal, cs.End
			st.Verdict = ""
		}
	}
	if !atRun {
		st.Step = len(r.planned)
	}
	if st.Phase != "done" {
		st.Verdict = ""
	}
	if len(methods) > 0 {
		st.Method = methods[0]
	}
	if r.kind == kindChain {
		st.Method = strings.Join(methods, " → ")
	}
	st.Version = strconv.FormatUint(h.Sum64(), 36)
	st.texts()
	return st
}

// stageMethod is the method in a chain stage's directory name
// (stage-2-spsa), for a stage not started yet.
func stageMethod(dir string) string {
	name := filepath.Base(dir)
	if _, rest, ok := strings.Cut(name, "-"); ok {
		if _, m, ok := strings.Cut(rest, "-"); ok {
			return m
		}
	}
	return name
}
