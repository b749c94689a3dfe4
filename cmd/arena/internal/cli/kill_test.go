package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/tournament"
)

// errKilled stands for a SIGKILL in TestStopAnywhereResumes.
var errKilled = errors.New("killed")

// killer makes stopAt fail, for one match directory, from a given game and
// step on: the match stops there writing nothing more, as after a kill.
type killer struct {
	mu         sync.Mutex
	out        string
	game, step int
	armed      bool
}

func (k *killer) stopAt(out string, game, step int) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.armed || out != k.out {
		return nil
	}
	if game > k.game || (game == k.game && step >= k.step) {
		return errKilled
	}
	return nil
}

// TestStopAnywhereResumes stops a match again and again at random moments
// — a kill before a game's SGF, a kill between its SGF and its line in
// games.jsonl, a Ctrl-C at a game boundary — leaves the temporary files a
// kill during an atomic write leaves and removes the SGF of a logged game
// (as an older arena could lose it), resuming after each stop. At the end
// no SGF is missing, no temporary file is left, and games.jsonl, the SGF
// files and summary.json equal those of the match played in one go.
func TestStopAnywhereResumes(t *testing.T) {
	base := t.TempDir()
	args := func(out string) []string {
		return []string{"-json", "-pairs", "10", "-depth", "1", "-width", "4", "-concurrency", "2", "-ratinginterval", "0", "-out", out, "zhou2015", "qi2018-table3-1"}
	}
	full := filepath.Join(base, "full")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), args(full), &stdout, &stderr); code != 0 {
		t.Fatalf("full: exit %d: %s", code, stderr.String())
	}
	const games = 20

	cut := filepath.Join(base, "cut")
	k := &killer{out: cut}
	old := stopAt
	stopAt = k.stopAt
	t.Cleanup(func() { stopAt = old })
	rng := rand.New(rand.NewPCG(32, 3))
	logged := func() int {
		data, _ := os.ReadFile(filepath.Join(cut, "games.jsonl"))
		return bytes.Count(data, []byte{'\n'})
	}
	stops := map[string]int{}
	for round := 0; ; round++ {
		done := logged()
		if done >= games-1 || round > 40 {
			break
		}
		argv := []string{"-resume", cut}
		if round == 0 {
			argv = args(cut)
		}
		game := done + 1 + rng.IntN(min(4, games-done-1))
		ctx, cancel := context.WithCancel(context.Background())
		// The kinds in turn, so that every kind is met whatever the
		// timing: an interrupt's games run on until the cancel lands, so
		// under load a few interrupts can finish the match in few rounds.
		kind := []string{"kill before the SGF", "kill between the SGF and the log", "interrupt"}[round%3]
		k.mu.Lock()
		k.game, k.step, k.armed = game, 1, kind != "interrupt"
		if kind == "kill before the SGF" {
			k.step = 0
		}
		k.mu.Unlock()
		if kind == "interrupt" {
			go cancelAfter(ctx, cancel, cut, game)
		}
		stdout.Reset()
		stderr.Reset()
		code := Main(ctx, argv, &stdout, &stderr)
		cancel()
		switch {
		case kind == "interrupt" && code != exitInterrupted && code != exitOK:
			t.Fatalf("round %d (%s at game %d): exit %d: %s", round, kind, game, code, stderr.String())
		case kind != "interrupt" && code != exitFail:
			t.Fatalf("round %d (%s at game %d): exit %d, want %d: %s", round, kind, game, code, exitFail, stderr.String())
		}
		stops[kind]++
		// What a kill in the middle of atomic writes leaves behind.
		for _, tmp := range []string{".summary.json.tmp-1", ".winrate.png.tmp-2", filepath.Join("sgf", fmt.Sprintf(".game-%06d.sgf.tmp-3", game))} {
			if err := os.WriteFile(filepath.Join(cut, tmp), []byte("partial"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if n := logged(); n > 0 && round%3 == 1 {
			os.Remove(filepath.Join(cut, "sgf", fmt.Sprintf("game-%06d.sgf", rng.IntN(n))))
		}
	}
	k.mu.Lock()
	k.armed = false
	k.mu.Unlock()
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), []string{"-resume", cut}, &stdout, &stderr); code != 0 {
		t.Fatalf("last resume: exit %d: %s", code, stderr.String())
	}
	t.Logf("stops: %v", stops)
	if len(stops) < 3 {
		t.Errorf("stops %v: want every kind of stop", stops)
	}

	a, b := matchGames(t, full), matchGames(t, cut)
	if len(a) != games || !reflect.DeepEqual(noTimes(a), noTimes(b)) {
		t.Errorf("games log of the stopped and resumed match differs from the one played in one go (%d vs %d games)", len(b), len(a))
	}
	for _, g := range a {
		want, _ := os.ReadFile(filepath.Join(full, "sgf", g.SGFName()))
		got, err := os.ReadFile(filepath.Join(cut, "sgf", g.SGFName()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("game %d: SGF %v, equal to the uninterrupted match's: %t", g.Game, err, bytes.Equal(got, want))
		}
	}
	sgfs, _ := filepath.Glob(filepath.Join(cut, "sgf", "*.sgf"))
	if len(sgfs) != games {
		t.Errorf("%d SGF files, want %d", len(sgfs), games)
	}
	filepath.WalkDir(cut, func(p string, d os.DirEntry, err error) error {
		if err == nil && fileio.IsTemp(d.Name()) {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
	summary := func(dir string) tournament.Summary {
		var s tournament.Summary
		data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		s.Seconds, s.Resumed = 0, 0
		return s
	}
	if got, want := summary(cut), summary(full); !reflect.DeepEqual(got, want) {
		t.Errorf("summary.json of the resumed match:\n%+v\nwant the uninterrupted match's:\n%+v", got, want)
	}
}
