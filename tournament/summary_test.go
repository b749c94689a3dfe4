package tournament

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// short is the games w, d, l as a summary counts them.
func short(w, d, l int) wdl.Short {
	return wdl.Short{Count: wdl.Count{Wins: w, Draws: d, Losses: l}}
}

// game is a record of game k of pair p, black against white (entrant
// indices into names), with result res.
func game(names []string, k, p, black, white int, res Result, reason string) GameRecord {
	return GameRecord{Game: k, Pair: p, Black: names[black], White: names[white],
		BlackIndex: black, WhiteIndex: white, Result: res, Reason: reason}
}

func TestSummarizeHeadToHead(t *testing.T) {
	names := []string{"a", "b"}
	recs := []GameRecord{
		game(names, 0, 0, 0, 1, BlackWins, "six"), // a wins as Black
		game(names, 1, 0, 1, 0, Draw, "move-limit"),
		game(names, 2, 1, 0, 1, WhiteWins, "six"), // a loses as Black
		game(names, 3, 1, 1, 0, WhiteWins, "six"), // a wins as White
		game(names, 4, 2, 0, 1, BlackWins, "forfeit:time"),
		// pair 2 incomplete: its second game was not played
	}
	tab, err := BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	head := Summary{Schedule: "head-to-head", Players: []PlayerInfo{{Name: "a", Kind: "weights", Source: "zhou2015"}, {Name: "b", Kind: "weights", Source: "b.json"}},
		Pairs: 3, Openings: "file x (3 openings)", Depth: 1, Width: 4, MoveTime: "10s", Seconds: 1.5,
		Games: 99, Matchups: []MatchSummary{{A: "stale"}}}
	s := Summarize(tab, head)
	if s.Schedule != head.Schedule || s.Pairs != 3 || s.Seconds != 1.5 || !reflect.DeepEqual(s.Players, head.Players) || s.Openings != head.Openings {
		t.Errorf("header not kept: %+v", s)
	}
	if s.Games != 5 || !reflect.DeepEqual(s.Reasons, map[string]int{"six": 3, "move-limit": 1, "forfeit:time": 1}) {
		t.Errorf("games %d, reasons %v", s.Games, s.Reasons)
	}
	if s.Standings != nil || s.SPRT != nil || len(s.Matchups) != 1 {
		t.Fatalf("standings %v, sprt %v, %d matchups", s.Standings, s.SPRT, len(s.Matchups))
	}
	m := s.Matchups[0]
	want := MatchSummary{
		A: "a", B: "b",
		Games:   short(3, 1, 1),
		AsBlack: short(2, 0, 1),
		AsWhite: short(1, 1, 0),
		// pair 0: W then D (1½ points: WD); pair 1: L then W (1 point: WL)
		Pentanomial: [5]int{0, 0, 1, 1, 0},
		Pairs:       2,
		N:           5,
		Score:       3.5 / 5,
	}
	e, err := stats.EstimateCounts([]int{0, 0, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	want.ScoreLo, want.ScoreHi, want.Elo, want.EloCI, want.LOS = e.ScoreLo, e.ScoreHi, e.Elo, e.EloCI, e.LOS
	if !reflect.DeepEqual(m, want) {
		t.Errorf("matchup\n got %+v\nwant %+v", m, want)
	}
	// The same matchup from B's view mirrors every count.
	flip := tab.Matchups[0].Flip().Summary("b", "a")
	if flip.Games != short(1, 1, 3) || flip.AsBlack != short(0, 1, 1) ||
		flip.Pentanomial != [5]int{0, 1, 1, 0, 0} || flip.Pairs != 2 || flip.N != 5 || math.Abs(flip.Elo+m.Elo) > 1e-9 {
		t.Errorf("B's view %+v", flip)
	}
}

func TestSummarizeRoundRobinAndSPRT(t *testing.T) {
	names := []string{"a", "b", "c"}
	recs := []GameRecord{
		game(names, 0, 0, 0, 1, BlackWins, "six"),
		game(names, 1, 0, 1, 0, WhiteWins, "six"),
		game(names, 2, 1, 0, 2, Draw, "full-board"),
		game(names, 3, 1, 2, 0, Draw, "full-board"),
		game(names, 4, 2, 1, 2, BlackWins, "six"),
		game(names, 5, 2, 2, 1, BlackWins, "six"),
	}
	tab, err := BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	tab.SPRT = &SPRTStatus{SPRT: stats.SPRT{Elo0: 0, Elo1: 5}, LLR: math.NaN(), Lower: -2.9, Upper: 2.9, Decision: "continue", Pairs: 3}
	s := Summarize(tab, Summary{Schedule: "round-robin"})
	if len(s.Matchups) != 3 || len(s.Standings) != 3 {
		t.Fatalf("%d matchups, %d standings", len(s.Matchups), len(s.Standings))
	}
	// a 3 points, c 2, b 1.
	if got := []string{s.Standings[0].Name, s.Standings[1].Name, s.Standings[2].Name}; !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Errorf("standings order %q", got)
	}
	a := s.Standings[0]
	if a.Games != short(2, 2, 0) || a.Points != 3 || a.Score != 0.75 || !(a.ScoreLo < 0.75 && a.ScoreHi > 0.75) {
		t.Errorf("a's standing %+v", a)
	}
	// The SPRT takes the default error rates; NaN becomes 0.
	want := SPRTSummary{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, LLR: 0, Lower: -2.9, Upper: 2.9, Decision: "continue", Pairs: 3}
	if s.SPRT == nil || *s.SPRT != want {
		t.Errorf("sprt %+v, want %+v", s.SPRT, want)
	}

	// Empty table: no games, reasons an empty object, no NaN in sight.
	empty, _ := BuildTable(names[:2], nil)
	es := Summarize(empty, Summary{})
	data, err := json.Marshal(es)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"reasons":{}`) || es.Games != 0 {
		t.Errorf("empty summary %s", data)
	}
}

// TestSummaryJSONKeys pins the JSON keys: arena's summary.json and the
// tuning job's validation.json are read by scripts.
func TestSummaryJSONKeys(t *testing.T) {
	s := Summary{
		Reasons:   map[string]int{},
		Matchups:  []MatchSummary{Matchup{}.Summary("x", "y")}, // no games: figures 0
		Standings: []StandingSummary{{}},
		SPRT:      &SPRTSummary{},
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	json.Unmarshal(data, &top)
	keys := func(m map[string]json.RawMessage) []string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	if got, want := keys(top), []string{"depth", "games", "matchups", "max_moves", "move_time", "openings", "pairs", "players", "reasons", "schedule", "seconds", "sprt", "standings", "width"}; !slices.Equal(got, want) {
		t.Errorf("summary keys %q, want %q", got, want)
	}
	var ms []map[string]json.RawMessage
	json.Unmarshal(top["matchups"], &ms)
	if got, want := keys(ms[0]), []string{"a", "a_as_black", "a_as_white", "b", "elo", "elo_ci", "games", "los", "n", "pairs", "pentanomial", "score", "score_hi", "score_lo"}; !slices.Equal(got, want) {
		t.Errorf("matchup keys %q, want %q", got, want)
	}
	var st []map[string]json.RawMessage
	json.Unmarshal(top["standings"], &st)
	if got, want := keys(st[0]), []string{"games", "name", "points", "score", "score_hi", "score_lo"}; !slices.Equal(got, want) {
		t.Errorf("standing keys %q, want %q", got, want)
	}
	var sp map[string]json.RawMessage
	json.Unmarshal(top["sprt"], &sp)
	if got, want := keys(sp), []string{"alpha", "beta", "decision", "elo0", "elo1", "llr", "lower", "pairs", "upper"}; !slices.Equal(got, want) {
		t.Errorf("sprt keys %q, want %q", got, want)
	}
}

// matchSummaryJSON is a matchup of summary.json (and validation.json):
// games counted as {"w": …, "d": …, "l": …}.
const matchSummaryJSON = `{"a":"x","b":"y","games":{"w":3,"d":1,"l":1},"a_as_black":{"w":2,"d":0,"l":1},"a_as_white":{"w":1,"d":1,"l":0},"pentanomial":[0,0,1,1,0],"pairs":2,"n":5,"score":0.7,"score_lo":0,"score_hi":0,"elo":0,"elo_ci":0,"los":0}`

// TestMatchSummaryJSON pins a matchup's and a standing's JSON: they write
// the bytes of summary.json and read them back.
func TestMatchSummaryJSON(t *testing.T) {
	m := MatchSummary{A: "x", B: "y",
		Games:       short(3, 1, 1),
		AsBlack:     short(2, 0, 1),
		AsWhite:     short(1, 1, 0),
		Pentanomial: [5]int{0, 0, 1, 1, 0}, Pairs: 2, N: 5, Score: 0.7}
	data, err := json.Marshal(m)
	if err != nil || string(data) != matchSummaryJSON {
		t.Errorf("matchup writes %s (%v), want %s", data, err, matchSummaryJSON)
	}
	var back MatchSummary
	if err := json.Unmarshal([]byte(matchSummaryJSON), &back); err != nil || back != m {
		t.Errorf("matchup reads as %+v (%v), want %+v", back, err, m)
	}
	s := StandingSummary{Name: "x", Games: short(2, 2, 0), Points: 3, Score: 0.75}
	const standingJSON = `{"name":"x","games":{"w":2,"d":2,"l":0},"points":3,"score":0.75,"score_lo":0,"score_hi":0}`
	if data, err := json.Marshal(s); err != nil || string(data) != standingJSON {
		t.Errorf("standing writes %s (%v), want %s", data, err, standingJSON)
	}
	var sb StandingSummary
	if err := json.Unmarshal([]byte(standingJSON), &sb); err != nil || sb != s {
		t.Errorf("standing reads as %+v (%v), want %+v", sb, err, s)
	}
}

// TestCommittedSummariesRead: every arena summary kept in
// docs/experiments reads (no unknown field) with counts that agree: each
// matchup's games sum to n, its pentanomial to at most n/2 pairs (to
// pairs, where the summary writes them: older ones do not), its games by
// colour to its games, and a standing's games to its points.
func TestCommittedSummariesRead(t *testing.T) {
	files, err := filepath.Glob("../docs/experiments/*/summary.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no summary.json under docs/experiments (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s Summary
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, m := range s.Matchups {
			g, b, w := m.Games, m.AsBlack, m.AsWhite
			pairs := 0
			for _, n := range m.Pentanomial {
				pairs += n
			}
			if g.Games() != m.N || m.N == 0 || 2*pairs > m.N || m.Pairs != 0 && pairs != m.Pairs ||
				short(b.Wins+w.Wins, b.Draws+w.Draws, b.Losses+w.Losses) != g {
				t.Errorf("%s: matchup %s-%s counts %+v (%+v as Black, %+v as White), pentanomial %v, n %d, pairs %d",
					f, m.A, m.B, g, b, w, m.Pentanomial, m.N, m.Pairs)
			}
		}
		for _, st := range s.Standings {
			if g := st.Games; g.Games() == 0 || g.Score() != st.Points {
				t.Errorf("%s: standing %s games %+v, points %g", f, st.Name, g, st.Points)
			}
		}
	}
}
