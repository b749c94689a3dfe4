package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/cmd/internal/web"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// commandFile holds the command line of a match in its -out directory, for
// -resume.
const commandFile = "command.json"

// planFile is the match's plan (tournament.MatchPlan), written when it
// starts.
const planFile = "plan.json"

type savedCommand struct {
	Args []string `json:"args"`
	// Version is commandVersion when the match was started; 0 (absent)
	// for matches started before the balanced suite became the default.
	Version int `json:"version,omitempty"`
}

// commandVersion is the meaning of a saved command line's defaults:
// 1 = without -openings a match plays the balanced suite. A match saved
// before (version 0) played the generated suite, and its resume must too.
const commandVersion = 1

// outHint says where match directories come from, for -resume's errors.
const outHint = "arena -out DIR writes a match directory"

// readCommand reads the command line saved in dir (a regular file of at
// most 1 MiB, fileio.Config), with the defaults it was started under made
// explicit. Errors say plainly that dir is missing or is not a match
// directory; a command.json that cannot be read is a *fileio.Error.
func readCommand(dir string) ([]string, error) {
	if err := cmdline.Dir("resume", dir, outHint); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, commandFile)
	data, err := fileio.ReadFile(path, fileio.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, cmdline.Flagf("resume", "%s is not a match directory: it holds no %s (%s)", dir, commandFile, outHint)
	}
	if err != nil {
		return nil, err
	}
	var c savedCommand
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, &fileio.Error{Path: path, Err: err}
	}
	if c.Args == nil {
		return nil, &fileio.Error{Path: path, Err: errors.New(`field "args" missing`)}
	}
	if c.Version == 0 && !slices.ContainsFunc(c.Args, isOpeningsFlag) {
		return append(c.Args, "-openings", "generated"), nil
	}
	return c.Args, nil
}

// isOpeningsFlag reports whether a command-line word sets the openings.
func isOpeningsFlag(w string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
	return strings.HasPrefix(w, "-") && (name == "openings" || name == "random-openings")
}

// checkOut refuses an -out directory that is not empty: one holding a
// match is to be resumed, any other is to be replaced by a new or empty
// directory. A missing dir, or an empty one, is fine.
func checkOut(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil // missing, or CreateRunDir says what is wrong
	}
	if _, err := os.Stat(filepath.Join(dir, commandFile)); err == nil {
		return usageError{cmdline.Flagf("out", "%s holds a match: continue it with arena -resume %s, or choose another -out", dir, dir)}
	}
	return usageError{cmdline.Flagf("out", "%s is not empty (holds %q) and holds no match: choose a new or empty directory", dir, entries[0].Name())}
}

// stopAt is called, for a match with -out, before a game's SGF is written
// (step 0) and between its SGF and its line in games.jsonl (step 1); an
// error ends the match there at once, writing nothing more, as a kill
// would. Tests replace it.
var stopAt = func(out string, game, step int) error { return nil }

// errInterrupted ends a match stopped by a signal (exit status 130).
var errInterrupted = errors.New("interrupted")

// live prints cutechess-cli's running score line for one pairing.
func live(w io.Writer, tab *tournament.Table, a, b int, sprt *stats.SPRT) {
	m, ok := tab.Lookup(a, b)
	if !ok {
		return
	}
	s := m.Summary(tab.Players[a], tab.Players[b])
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d [%.3f] %d; Elo %+.1f ± %.1f; LOS %.1f%%",
		s.A, s.B, s.Games.Wins, s.Games.Losses, s.Games.Draws, s.Score, s.N, s.Elo, s.EloCI, 100*s.LOS)
	if sprt != nil {
		if llr, _, err := sprt.Test(m.Pairs.Counts()); err == nil {
			lo, hi := sprt.Bounds()
			fmt.Fprintf(w, "; LLR %.2f [%.2f, %.2f]", llr, lo, hi)
		}
	}
	fmt.Fprintln(w)
}

// run plays the match and writes its report. A cancelled ctx (SIGINT,
// SIGTERM) writes the table of the completed game pairs and returns
// errInterrupted.
func run(ctx context.Context, o *options, stdout, stderr io.Writer) (err error) {
	var ln net.Listener
	var url string
	if o.http != "" { // bound first: a bad address fails before anything is played or written
		if ln, url, err = web.Listen(o.http, stderr); err != nil {
			return usageError{err}
		}
		defer ln.Close()
	}
	m, err := setup(ctx, o, stderr)
	if err != nil {
		return err
	}
	if m.logFile != nil {
		defer func() {
			if cerr := m.log.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("-log: %w", cerr)
			}
			m.logFile.Close()
		}()
	}
	r := m.r
	// Checked (and -nats dialled) before anything is written.
	sess, err := o.cluster.Session(stderr, "arena", nil)
	var fe *cluster.FlagError
	if errors.As(err, &fe) {
		return usageError{err}
	} else if err != nil {
		return err
	}
	if sess != nil {
		defer sess.Close()
	}
	if len(r.Openings) < o.pairs && o.openings != "empty" {
		fmt.Fprintf(stderr, "arena: warning: %d openings for %d game pairs: openings repeat, and deterministic engines replay the same games, which narrows the interval without information\n", len(r.Openings), o.pairs)
	}
	names := make([]string, len(m.players))
	for i, p := range m.players {
		names[i] = p.Name
	}
	t := tournament.NewPairTally(names)
	var dir *results.RunDir
	var glog *tournament.GameLog
	resumed := 0
	if o.out != "" {
		if o.resume {
			if dir, err = results.OpenRunDir(o.out); err != nil {
				return usageError{err}
			}
		} else {
			if err := checkOut(o.out); err != nil {
				return err
			}
			if dir, err = results.CreateRunDir(o.out); err != nil {
				return usageError{err}
			}
			if err := results.WriteJSONAtomic(dir.Path(commandFile), savedCommand{Args: o.args, Version: commandVersion}); err != nil {
				return err
			}
		}
		// Played here until run returns (a clean stop included): the web
		// pages show a match whose marker names a dead process as
		// interrupted, not live.
		if err := dir.MarkRunning(); err != nil {
			return err
		}
		defer dir.UnmarkRunning()
		// The plan, for readers of the match in progress (the web pages);
		// rewritten on -resume, which plays the same plan.
		plan := tournament.NewMatchPlan(header(o, m), 2*len(m.fixtures), m.sprt)
		if err := results.WriteJSONAtomic(dir.Path(planFile), plan); err != nil {
			return err
		}
		var cut int64
		if glog, cut, err = tournament.OpenGameLog(dir.Path("games.jsonl")); err != nil {
			return err
		}
		defer func() {
			if cerr := glog.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
		if cut > 0 {
			fmt.Fprintf(stderr, "arena: removed an incomplete last line (%d bytes) from games.jsonl\n", cut)
		}
		if o.resume {
			// A game counts as played once its line is in games.jsonl, and
			// its SGF is written before that line; a match directory of an
			// older arena may still lack the SGF of a game it logged: it is
			// rebuilt from the log. Temporary files of writes a stop cut
			// short are removed.
			if n, err := fileio.RemoveTemps(dir.Dir); err != nil {
				return err
			} else if n > 0 {
				fmt.Fprintf(stderr, "arena: removed %d temporary files of interrupted writes\n", n)
			}
			// Each record is checked where it is read, so that an error
			// names its line: the moves replayed through the rules
			// (ResumeGames), the game against the schedule (CheckResumed:
			// its index once, its players); a refused record exits 2.
			check := func(tournament.GameRecord) error { return nil }
			if m.seeds == nil {
				check = r.CheckResumed(m.fixtures)
			}
			rebuilt, err := tournament.ResumeGames(dir.Path("games.jsonl"), dir.Path("sgf"), func(g tournament.GameRecord) error {
				if err := check(g); err != nil {
					return err
				}
				r.Resume = append(r.Resume, g)
				return t.Add(g)
			})
			if fe := (*fileio.Error)(nil); errors.As(err, &fe) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if rebuilt > 0 {
				fmt.Fprintf(stderr, "arena: rebuilt %d SGF files missing from sgf/ from games.jsonl\n", rebuilt)
			}
			resumed = len(r.Resume)
			fmt.Fprintf(stderr, "arena: resuming %s: %d games already played\n", o.out, resumed)
		}
	}
	if sess != nil {
		if err := startCluster(ctx, sess, o, dir, r); err != nil {
			return err
		}
	}
	total := 2 * len(m.fixtures)
	if m.seeds != nil {
		total = 0 // unknown in advance
	}
	var tracker *web.Tracker
	if ln != nil {
		tracker = web.NewTracker(o.out)
		tracker.Update(func(l *web.Live) { l.Phase, l.Players, l.BatchTotal = "playing", m.players, total })
		stop, err := web.Background(ln, []string{o.out}, web.Options{Live: tracker.Live})
		if err != nil {
			return err
		}
		defer stop()
		fmt.Fprintf(stderr, "arena: the match's pages are at %s while it plays\n", url)
	}
	var prog *progress.Display
	if o.ratingInterval == 0 && total > 0 {
		prog = progress.New(stderr, progress.IsTerminal(stdout), false)
		prog.Steps = 10
		prog.Begin("arena", total)
		r.Progress = prog.Update
	}
	// A knockout restarts game numbers each round: offset them so the log
	// and the SGF files number the games of the whole knockout.
	offset, last := 0, -1
	played := 0
	r.OnGame = func(g tournament.GameRecord) error {
		if g.Game <= last {
			offset += last + 1
		}
		last = g.Game
		g.Game += offset
		g.Pair += offset / 2
		if glog != nil {
			if err := stopAt(o.out, g.Game, 0); err != nil {
				return err
			}
			// The SGF first: once the game's line is in the log the game
			// counts as played, and a stop between the two writes leaves
			// at worst an SGF that the resumed match writes again.
			if _, err := tournament.WriteSGF(dir.Path("sgf"), g); err != nil {
				return err
			}
			if err := stopAt(o.out, g.Game, 1); err != nil {
				return err
			}
			if err := glog.Append(g); err != nil {
				return err
			}
		}
		if err := t.Add(g); err != nil {
			return err
		}
		played++
		if tracker != nil {
			tracker.Games(resumed, resumed+played, total)
		}
		if o.ratingInterval > 0 && played%o.ratingInterval == 0 {
			a, b := g.BlackIndex, g.WhiteIndex // the fixture's A has Black in a pair's first game
			if g.Game%2 == 1 {
				a, b = b, a
			}
			live(stderr, t.Table(), a, b, m.sprt)
		}
		return nil
	}
	start := time.Now()
	var champion string
	var runTab *tournament.Table
	var runErr error
	if m.seeds != nil {
		var k *tournament.Knockout
		if k, runErr = r.Knockout(ctx, m.seeds, o.pairs); runErr == nil {
			champion = names[k.Champion]
			printKnockout(stdout, k, names, o.json)
		}
	} else {
		runTab, runErr = r.Run(ctx, m.fixtures)
	}
	if prog != nil {
		prog.End()
	}
	interrupted := runErr != nil && ctx.Err() != nil
	if runErr != nil && !interrupted {
		return runErr
	}
	tab := t.Table()
	switch {
	case runTab != nil:
		tab.SPRT = runTab.SPRT
	case m.sprt != nil:
		tab.SPRT = tournament.NewSPRTStatus(*m.sprt, tab)
	}
	sum := summarize(o, m, tab, time.Since(start))
	sum.Games, sum.Reasons = t.Games(), t.Reasons()
	sum.Champion, sum.Resumed, sum.Interrupted = champion, resumed, interrupted
	if o.json {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		printTable(stdout, sum)
	}
	if dir != nil {
		if err := results.WriteJSONAtomic(dir.Path("summary.json"), sum); err != nil {
			return err
		}
		if err := winRateChart(sum).Save(dir.Path("winrate")); err != nil {
			return err
		}
		wrote := "plan.json, summary.json, games.jsonl, sgf/, winrate.png, winrate.svg"
		if sum.SPRT != nil {
			ok, err := saveLLRChart(dir, sum)
			if err != nil {
				return err
			}
			if ok {
				wrote += ", plots/llr.png, plots/llr.svg"
			}
		}
		if !o.json {
			fmt.Fprintf(stdout, "\nWrote %s (%s)\n", o.out, wrote)
		}
	}
	if interrupted {
		how := ""
		if dir != nil && m.seeds == nil {
			how = "; continue with: arena -resume " + o.out
		}
		return fmt.Errorf("%w after %d games in this run: the table holds the %d completed game pairs%s", errInterrupted, played, t.Games()/2, how)
	}
	return nil
}

// saveLLRChart writes the match's SPRT chart (web.MatchLLRChart, the
// one its page draws) as plots/llr.png and .svg, from the games log (the
// games of earlier sessions of a resumed match included); ok is false
// when no game pair was complete.
func saveLLRChart(dir *results.RunDir, sum tournament.Summary) (ok bool, err error) {
	games, err := tournament.ReadGameLog(dir.Path("games.jsonl"))
	if err != nil {
		return false, err
	}
	var players []string
	if len(sum.Matchups) == 1 {
		players = []string{sum.Matchups[0].A, sum.Matchups[0].B}
	}
	c, ok, err := web.MatchLLRChart(sum.SPRT, players, games)
	if err != nil || !ok {
		return false, err
	}
	return true, c.Save(dir.Path("plots", "llr"))
}

// printKnockout writes the rounds of a knockout (text mode only).
func printKnockout(w io.Writer, k *tournament.Knockout, names []string, asJSON bool) {
	if asJSON {
		return
	}
	for i, rd := range k.Rounds {
		fmt.Fprintf(w, "knockout round %d:", i+1)
		for _, b := range rd.Byes {
			fmt.Fprintf(w, " %s (bye);", names[b])
		}
		for _, mt := range rd.Matches {
			fmt.Fprintf(w, " %s %.1f-%.1f %s → %s;", names[mt.A], mt.Score, float64(mt.Games)-mt.Score, names[mt.B], names[mt.Winner])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "champion: %s\n\n", names[k.Champion])
}

// remoteBatches is the number of game batches of a match in flight on
// workers: enough to keep several workers busy.
const remoteBatches = 8

// startCluster starts the match's side of the cluster and makes the
// runner play through it: the embedded server's storage in the match
// directory (a temporary one without -out, removed at the end), the run
// named after the match directory so that a resumed match finds its
// batches and results again, and the batches replayed to verify the
// workers picked with -seed.
func startCluster(ctx context.Context, sess *cluster.Session, o *options, dir *results.RunDir, r *tournament.Runner) error {
	run, store := fmt.Sprintf("arena-%d", os.Getpid()), ""
	if dir != nil {
		run, store = "arena-"+filepath.Base(filepath.Clean(o.out)), dir.Path(cluster.DirNATS)
	}
	if err := sess.StartGames(ctx, store, run, o.concurrency); err != nil {
		return err
	}
	r.Remote, r.Concurrency = sess.Referee(), remoteBatches
	sess.Referee().VerifySeed = o.seed // picks the batches the coordinator replays
	return nil
}
