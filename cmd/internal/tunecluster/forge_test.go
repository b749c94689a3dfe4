package tunecluster_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/internal/fixture/rogue"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
)

// TestForgedResultsAreRefused: a rogue client with the cluster's
// credentials answers batches with impossible counts (refused by the
// checks at once), with wins and losses swapped (plausible totals) or with
// rewritten game records (caught by the replay of its first results, with
// the default sample), with error results of 64 KiB (counted against it:
// quarantined at the coordinator's MaxErrors, 1 here, each quoted cut
// short), with a gzip bomb (refused unread), or gives every batch back at
// once (its refusals do not use up the batches' deliveries; it is not
// quarantined, having sent nothing). In every case the run goes on: the
// rogue is quarantined and named in the log (but the refusing one), and
// the run's records, games and best.json are the honest in-process run's,
// and the run resumes.
func TestForgedResultsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forge  rogue.Forge
		extra  string
		caught string // by the "checks", the "replay", its "errors"; "": not quarantined
		bomb   int    // rogue.Client.Bomb
		refuse bool   // rogue.Client.Refuse
	}{
		{name: "impossible", forge: rogue.Impossible, caught: "checks"},
		{name: "swapped", forge: rogue.Swapped, caught: "replay"},
		{name: "rewritten", forge: rogue.Rewritten, extra: "[output]\ngames = true", caught: "replay"},
		{name: "swapped, then errors", forge: thenErrors(rogue.Swapped), caught: "replay"},
		{name: "error results", forge: rogue.Failed, caught: "errors"},
		{name: "gzip bomb", bomb: 64 << 20, caught: "checks"},
		{name: "refuses everything", refuse: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := tune.Parse("pso.toml", []byte(tunetest.Tiny("pso", tc.extra)))
			if err != nil {
				t.Fatal(err)
			}
			honest := runfixture.Stepped(t, cfg, tune.Options{})
			c := newTestCluster(t, cfg)
			var log tunetest.SyncBuffer
			c.coord.Log, c.coord.MaxErrors = &log, 1
			r := &rogue.Client{Conn: c.dial("rogue"), Name: "rogue", Forge: tc.forge, Bomb: tc.bomb, Refuse: tc.refuse, Answered: make(chan struct{})}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			defer func() { cancel(); wg.Wait() }()
			wg.Go(func() {
				if err := r.Run(ctx); err != nil {
					t.Errorf("rogue: %v", err)
				}
			})
			wg.Go(func() { // the honest worker joins once the rogue has answered
				select {
				case <-r.Answered:
					c.start("honest")
				case <-ctx.Done():
				}
			})
			dir := runfixture.Stepped(t, cfg, tune.Options{Referee: c.coord})
			if r.Answers() == 0 {
				t.Fatal("the rogue answered no batch")
			}
			if caught := tc.caught != ""; caught != c.coord.Quarantined("rogue") || caught != strings.Contains(log.String(), "worker rogue quarantined") {
				t.Fatalf("the rogue is quarantined: %v, want %v; log:\n%s", c.coord.Quarantined("rogue"), caught, log.String())
			}
			if c.coord.Quarantined("honest") {
				t.Errorf("the honest worker is quarantined too; log:\n%s", log.String())
			}
			for line := range strings.Lines(log.String()) {
				if len(line) > 1000 {
					t.Errorf("a log line of %d bytes: %.300s…", len(line), line)
				}
			}
			st := c.coord.Stats()
			if n := map[string]int{"checks": st.Refused, "replay": st.Mismatched, "errors": st.Failed, "": 1}[tc.caught]; n == 0 {
				t.Errorf("stats %+v: want the rogue caught by the %s", st, tc.caught)
			}
			t.Logf("rogue answered %d batches; stats %+v", r.Answers(), st)
			if got, want := runfixture.Records(t, dir), runfixture.Records(t, honest); !reflect.DeepEqual(got, want) {
				t.Fatalf("run with a rogue:\n%s\nhonest run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if got, want := gamesOf(t, dir), gamesOf(t, honest); !reflect.DeepEqual(got, want) {
				t.Fatalf("games with a rogue differ from the honest run's: %d files, honest %d", len(got), len(want))
			}
			j, err := tune.Resume(dir, tune.Options{})
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			if err := j.Steps(context.Background(), 100); err != nil {
				t.Fatalf("resumed steps: %v", err)
			}
		})
	}
}

// thenErrors forges the first result with forge and answers every later
// batch with an error result: once quarantined, the rogue's errors must
// not fail the run nor lose the batches it took.
func thenErrors(forge rogue.Forge) rogue.Forge {
	var n atomic.Int64
	return func(b *cluster.Batch, r cluster.Result) cluster.Result {
		if n.Add(1) == 1 {
			return forge(b, r)
		}
		return cluster.Result{Error: "no"}
	}
}
