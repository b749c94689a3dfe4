package tune_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/internal/rogue"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
)

// TestForgedResultsAreRefused: a rogue client with the cluster's
// credentials answers batches with impossible counts (refused by the
// checks at once), with wins and losses swapped (plausible totals) or with
// rewritten game records (caught by the replay of its first results, with
// the default sample). In every case the rogue is quarantined and named in
// the log, and the run's records, games and best.json are the honest
// in-process run's, and the run resumes.
func TestForgedResultsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forge  rogue.Forge
		extra  string
		replay bool // caught by the replay (else by the checks)
	}{
		{"impossible", rogue.Impossible, "", false},
		{"swapped", rogue.Swapped, "", true},
		{"rewritten", rogue.Rewritten, "[output]\ngames = true", true},
		{"swapped, then errors", thenErrors(rogue.Swapped), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := tune.Parse("pso.toml", []byte(tunetest.Tiny("pso", tc.extra)))
			if err != nil {
				t.Fatal(err)
			}
			honest := stepped(t, cfg, tune.Options{})
			c := newTestCluster(t, cfg)
			var log tunetest.SyncBuffer
			c.coord.Log = &log
			r := &rogue.Client{Conn: c.dial("rogue"), Name: "rogue", Forge: tc.forge, Answered: make(chan struct{})}
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
			dir := stepped(t, cfg, tune.Options{Referee: c.coord})
			if r.Answers() == 0 {
				t.Fatal("the rogue answered no batch")
			}
			if !c.coord.Quarantined("rogue") || !strings.Contains(log.String(), "worker rogue quarantined") {
				t.Fatalf("the rogue is not quarantined; log:\n%s", log.String())
			}
			if c.coord.Quarantined("honest") {
				t.Errorf("the honest worker is quarantined too; log:\n%s", log.String())
			}
			st := c.coord.Stats()
			if tc.replay && st.Mismatched == 0 || !tc.replay && st.Refused == 0 {
				t.Errorf("stats %+v: want the rogue caught by the %s", st, map[bool]string{true: "replay", false: "checks"}[tc.replay])
			}
			t.Logf("rogue answered %d batches; stats %+v", r.Answers(), st)
			if got, want := recordsOf(t, dir), recordsOf(t, honest); !reflect.DeepEqual(got, want) {
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
