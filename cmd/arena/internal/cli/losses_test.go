package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament/losses"
)

// lossesMatch plays a small real match (4 game pairs at depth 1) and
// returns its directory.
func lossesMatch(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "m")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-pairs", "4", "-depth", "1", "-width", "6", "-concurrency", "1", "-out", dir, "zhou2015", "qi2018-attack"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("match: exit %d: %s", code, stderr.String())
	}
	return dir
}

// TestLosses: the post-mortem of a real match prints its tables, -o writes
// them, -json gives the report, and an existing -o file is refused and
// left as it was.
func TestLosses(t *testing.T) {
	dir := lossesMatch(t)
	var stdout, stderr bytes.Buffer
	args := []string{"losses", "-player", "qi2018-attack", "-prove-depth", "4", "-prove-nodes", "5000", "-hold-depth", "3", "-hold-nodes", "500", "-concurrency", "2"}
	out := filepath.Join(t.TempDir(), "losses.md")
	if code := Main(context.Background(), append(args, "-o", out, dir), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Post-mortem of qi2018-attack: 8 games,") || !strings.Contains(stdout.String(), "| cause | as black | as white | all |") {
		t.Errorf("report:\n%s", stdout.String())
	}
	written, err := os.ReadFile(out)
	if err != nil || string(written) != stdout.String() {
		t.Errorf("-o wrote %q (%v), want the printed report", written, err)
	}
	stdout.Reset()
	if code := Main(context.Background(), append(args, "-json", filepath.Join(dir, "games.jsonl")), &stdout, &stderr); code != exitOK {
		t.Fatalf("-json: exit %d: %s", code, stderr.String())
	}
	var rep losses.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Games != 8 || rep.Lost != len(rep.Losses) {
		t.Errorf("-json: %+v, %v", rep, err)
	}
	for _, l := range rep.Losses {
		if l.Cause == "" || (l.LosingMove > 0) != (l.Played != "") {
			t.Errorf("loss without a cause or with a losing move but no move: %+v", l)
		}
	}
	stderr.Reset()
	if code := Main(context.Background(), append(args, "-o", out, dir), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "exists: not replaced without -force") {
		t.Errorf("existing -o: exit %d: %s", code, stderr.String())
	}
	if again, _ := os.ReadFile(out); string(again) != string(written) {
		t.Error("a refused -o changed the file")
	}
}

// TestLossesUsageErrors: no player, a player not in the log, bad bounds,
// a missing log and a log line that does not decode exit 2 with a message
// naming the flag, the players or the file and line.
func TestLossesUsageErrors(t *testing.T) {
	dir := lossesMatch(t)
	bad := filepath.Join(t.TempDir(), "games.jsonl")
	if err := os.WriteFile(bad, []byte("{\"game\": 0}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{dir}, "flag -player"},
		{[]string{"-player", "nobody", dir}, `player "nobody" plays no game of the log (players: qi2018-attack, zhou2015)`},
		{[]string{"-player", "zhou2015", "-prove-depth", "17", dir}, "flag -prove-depth"},
		{[]string{"-player", "zhou2015", "-radius", "0", dir}, "flag -radius"},
		{[]string{"-player", "zhou2015"}, "want one match directory or games log"},
		{[]string{"-player", "zhou2015", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl"},
		{[]string{"-player", "zhou2015", bad}, "games.jsonl:1"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), append([]string{"losses"}, c.args...), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q: want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}
