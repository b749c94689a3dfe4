package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/tournament"
)

// TestMatchOnWorkers: a match played through an embedded NATS server
// (-listen, the in-process worker) logs the in-process match's games;
// interrupted and resumed it still does; its JetStream storage stays in
// the match directory.
func TestMatchOnWorkers(t *testing.T) {
	base := t.TempDir()
	args := func(out string, extra ...string) []string {
		return append([]string{"-json", "-pairs", "64", "-depth", "2", "-concurrency", "2", "-ratinginterval", "0", "-out", out, "zhou2015", "chen2010-pso15"}, extra...)
	}
	var stdout, stderr bytes.Buffer
	straight := filepath.Join(base, "straight")
	if code := Main(context.Background(), args(straight), &stdout, &stderr); code != 0 {
		t.Fatalf("in-process: exit %d: %s", code, stderr.String())
	}
	want, err := tournament.ReadGameLog(filepath.Join(straight, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(base, "whole")
	stderr.Reset()
	if code := Main(context.Background(), args(whole, "-listen", "127.0.0.1:0"), &stdout, &stderr); code != 0 {
		t.Fatalf("-listen: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tune worker -connect nats://127.0.0.1:") {
		t.Errorf("no worker address printed: %s", stderr.String())
	}
	got, err := tournament.ReadGameLog(filepath.Join(whole, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(noTimes(got), noTimes(want)) {
		t.Fatalf("-listen: %d games differ from the in-process %d", len(got), len(want))
	}
	if _, err := os.Stat(filepath.Join(whole, cluster.DirNATS)); err != nil {
		t.Errorf("no JetStream storage in the match directory: %v", err)
	}

	cut := filepath.Join(base, "cut")
	ctx, cancel := context.WithCancel(context.Background())
	go cancelAfter(ctx, cancel, cut, 9)
	stderr.Reset()
	code := Main(ctx, args(cut, "-listen", "127.0.0.1:0"), &stdout, &stderr)
	cancel()
	if code != exitInterrupted {
		t.Fatalf("interrupted: exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := Main(context.Background(), []string{"-resume", cut}, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	got, err = tournament.ReadGameLog(filepath.Join(cut, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(noTimes(got), noTimes(want)) {
		t.Fatalf("-listen, interrupted and resumed: %d games differ from the in-process %d", len(got), len(want))
	}
}

// TestClusterFlagsRefused: external engines, -listen with -nats, a
// non-loopback listen without a token and an unreachable server are
// refused with one line, and nothing is written.
func TestClusterFlagsRefused(t *testing.T) {
	t.Setenv(cluster.TokenEnv, "")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"zhou2015", "-engine", "cmd=/bin/cat", "-listen", "127.0.0.1:0"}, exitUsage, "external engine"},
		{[]string{"zhou2015", "chen2010-ga15", "-listen", "127.0.0.1:0", "-nats", "nats://127.0.0.1:4222"}, exitUsage, "cannot be combined"},
		{[]string{"zhou2015", "chen2010-ga15", "-listen", "0.0.0.0:0"}, exitUsage, "needs a token"},
		{[]string{"zhou2015", "chen2010-ga15", "-nats", "nats://127.0.0.1:1"}, exitFail, "no NATS server answers"},
	} {
		out := filepath.Join(t.TempDir(), "m")
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), append(c.args, "-out", out), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") > 0 {
			t.Errorf("%q: exit %d, %q; want exit %d and one line with %q", c.args, code, stderr.String(), c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: wrote %s", c.args, out)
		}
	}
}
