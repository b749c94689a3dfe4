package tournament

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
)

// TestPairTally: fed a round robin's games in game order (a few games
// lost, leaving half pairs), the tally counts exactly the complete pairs,
// as BuildTable of those pairs' games, and a pair's first game alone
// changes nothing.
func TestPairTally(t *testing.T) {
	names := []string{"a", "b", "c"}
	recs := syntheticGames(names, 8, 3)
	byPair := map[int]int{}
	for _, g := range recs {
		byPair[g.Pair]++
	}
	var whole []GameRecord
	tally := NewPairTally(names)
	for _, g := range recs {
		before := tally.Games()
		g.Moves = []engine.Move{{}} // stripped by the tally
		if err := tally.Add(g); err != nil {
			t.Fatal(err)
		}
		if byPair[g.Pair] == 2 {
			whole = append(whole, g.Bare())
		}
		if len(whole)%2 == 1 && tally.Games() != before {
			t.Fatalf("game %d, the first of its pair, was counted", g.Game)
		}
	}
	if len(whole) == len(recs) {
		t.Fatal("the synthetic games lost no game: the test of half pairs is void")
	}
	want, err := BuildTable(names, whole)
	if err != nil {
		t.Fatal(err)
	}
	got := tally.Table()
	if tally.Games() != len(whole) || got.Played != len(whole) || !reflect.DeepEqual(got.Matchups, want.Matchups) || !reflect.DeepEqual(tally.Reasons(), want.Reasons) {
		t.Errorf("tally: %d games, table %+v, reasons %v\nwant %d games, %+v, %v", tally.Games(), got.Matchups, tally.Reasons(), len(whole), want.Matchups, want.Reasons)
	}
}

// TestNewSPRTStatus: with no single pairing the test has not started;
// with one it is the SPRT of the pairing's pentanomial counts.
func TestNewSPRTStatus(t *testing.T) {
	s, err := stats.ParseSPRT("0,20")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := s.Bounds()
	if st := NewSPRTStatus(s, nil); st.LLR != 0 || st.Pairs != 0 || st.Decision != "continue" || st.Lower != lo || st.Upper != hi {
		t.Errorf("no table: %+v", st)
	}
	names := []string{"a", "b"}
	var recs []GameRecord
	for p := range 6 {
		recs = append(recs, game(names, 2*p, p, 0, 1, BlackWins, "six"), game(names, 2*p+1, p, 1, 0, WhiteWins, "six"))
	}
	tab, err := BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	llr, dec, err := s.Test(tab.Matchups[0].Pairs.Counts())
	if err != nil {
		t.Fatal(err)
	}
	if st := NewSPRTStatus(s, tab); st.LLR != llr || llr == 0 || st.Pairs != 6 || st.Decision != dec.String() {
		t.Errorf("one pairing: %+v, want LLR %v, %s", st, llr, dec)
	}
}

// TestResumeGames: every logged game comes back bare, in log order; the
// SGF files missing beside the log are written again and counted; an
// error of fn stops the replay, naming the file and line of the record.
func TestResumeGames(t *testing.T) {
	dir := t.TempDir()
	log, sgf := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "sgf")
	recs := records(t, 4)
	for i, g := range recs {
		if i%2 == 0 {
			if _, err := WriteSGF(sgf, g); err != nil {
				t.Fatal(err)
			}
		}
		if err := AppendGameLog(log, g); err != nil {
			t.Fatal(err)
		}
	}
	var got []GameRecord
	rebuilt, err := ResumeGames(log, sgf, func(g GameRecord) error {
		got = append(got, g)
		return nil
	})
	if err != nil || rebuilt != 2 || len(got) != len(recs) {
		t.Fatalf("rebuilt %d, %d games, %v; want 2, %d", rebuilt, len(got), err, len(recs))
	}
	for i, g := range got {
		if !reflect.DeepEqual(g, recs[i].Bare()) || g.Moves != nil {
			t.Errorf("game %d: %+v, want %+v", i, g, recs[i].Bare())
		}
		if _, err := os.Stat(filepath.Join(sgf, recs[i].SGFName())); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
	}
	stop := errors.New("stop")
	if _, err := ResumeGames(log, sgf, func(GameRecord) error { return stop }); !errors.Is(err, stop) || !strings.Contains(err.Error(), "games.jsonl:1: stop") {
		t.Errorf("fn's error: %v", err)
	}
}
