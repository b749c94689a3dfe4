package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

var (
	updateQuiet = flag.Bool("update-quiet", false, "regenerate engine/testdata/quiet.txt from -quiet-games and -quiet-losses")
	quietGames  = flag.String("quiet-games", "", "with -update-quiet: comma-separated arena games.jsonl files of one match")
	quietLosses = flag.String("quiet-losses", "", "with -update-quiet: the JSON of `arena losses -json` on that match")
	quietCensus = flag.Bool("quiet-census", false, "run TestQuietCensus on engine/testdata/quiet.txt")
	quietFile   = flag.String("quiet-file", "", "with -quiet-census: read the positions from this file (the census file's format) instead")
	quietLimit  = flag.Int("quiet-limit", 0, "with -quiet-census: the first N positions only (0: all)")
	quietSkip   = flag.Int("quiet-skip", 0, "with -quiet-census: skip the first N positions")
	quietTop    = flag.Int("quiet-top", 60, "with -quiet-census: White's root moves checked")
	quietPlay   = flag.Bool("quiet-play", false, "with -quiet-census: play each position at PlaySettings on a 4 s move clock with and without Settings.QuietSafe 60 instead")
	quietEach   = flag.Bool("quiet-each", false, "with -quiet-census: print every candidate's result")
	quietDeep   = flag.Bool("quiet-deep", false, "with -quiet-census: check the pairs found safe again at deepOptions' bounds, in rank order, until one holds")
)

const quietPath = "testdata/quiet.txt"

// quietPos is a position of the quiet-attack census: White to move before
// its first move after the opening, and the move the engine played.
type quietPos struct {
	moves  string
	played Move
	source string
	board  *Board
}

// loadQuiet reads the census positions: "MOVES | PLAYED # SOURCE" a line.
func loadQuiet(t testing.TB, path string) []quietPos {
	t.Helper()
	var out []quietPos
	scanSuite(t, path, func(line int, body, source string) {
		moves, pl, ok := strings.Cut(body, "|")
		played, err := ParseMove(strings.TrimSpace(pl))
		if !ok || err != nil {
			t.Fatalf("%s:%d: want MOVES | PLAYED # SOURCE (%v)", path, line, err)
		}
		moves = strings.TrimSpace(moves)
		out = append(out, quietPos{moves: moves, played: played, source: source,
			board: suiteBoard(t, path, line, strings.Fields(moves))})
	})
	return out
}

// TestQuietFile keeps the census file readable by go test ./... without
// the census flags: every line is a reachable position before White's
// first move after the opening (five stones, White to move, nobody has
// won) and its played pair is legal there.
func TestQuietFile(t *testing.T) {
	pos := loadQuiet(t, quietPath)
	if len(pos) == 0 {
		t.Fatalf("%s: no positions", quietPath)
	}
	for i, p := range pos {
		b := p.board
		if b.Stones() != 5 || b.ToMove() != White || b.Over() {
			t.Errorf("%s: position %d (%s): %d stones, %v to move, over %t; want White's first move after the opening",
				quietPath, i+1, p.moves, b.Stones(), b.ToMove(), b.Over())
			continue
		}
		if err := b.Clone().Play(p.played); err != nil {
			t.Errorf("%s: position %d (%s): played %s: %v", quietPath, i+1, p.moves, p.played, err)
		}
	}
}

// TestMineQuiet regenerates the census positions with -update-quiet: for
// every White game the player of `arena losses -json` (-quiet-losses) lost
// at its first move after the opening, or at its second with the cause
// "a quiet attack before the losing move", the position before White's
// first move (the opening and Black's first pair) and the pair White
// played, from the match's games logs (-quiet-games; a match played in
// parts, so a game is found by its opening with the player as White).
func TestMineQuiet(t *testing.T) {
	if !*updateQuiet {
		t.Skip("run with -update-quiet -quiet-games FILE,... -quiet-losses FILE to regenerate " + quietPath)
	}
	type game struct {
		White   string   `json:"white"`
		Opening string   `json:"opening"`
		Moves   []string `json:"moves"`
	}
	byOpening := map[string]game{}
	for _, path := range strings.Split(*quietGames, ",") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, js := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var g game
			if err := json.Unmarshal([]byte(js), &g); err != nil {
				t.Fatal(err)
			}
			byOpening[g.White+"|"+g.Opening] = g
		}
	}
	var rep struct {
		Player string `json:"player"`
		Losses []struct {
			Game       int    `json:"game"`
			Opening    string `json:"opening"`
			Colour     string `json:"colour"`
			LosingMove int    `json:"losing_move"`
			Turn       int    `json:"turn"`
			Cause      string `json:"cause"`
		} `json:"losses"`
	}
	data, err := os.ReadFile(*quietLosses)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range rep.Losses {
		quiet := l.LosingMove == 2 && strings.HasPrefix(l.Cause, "a quiet attack")
		if l.Colour != "white" || !(l.LosingMove == 1 || quiet) {
			continue
		}
		g, ok := byOpening[rep.Player+"|"+l.Opening]
		if !ok || len(g.Moves) < 4 || strings.Join(g.Moves[:2], " ") != l.Opening {
			t.Fatalf("game %d (%s): not in the games logs", l.Game, l.Opening)
		}
		lines = append(lines, fmt.Sprintf("%s | %s # game %d, lost at White's move %d (%s)",
			strings.Join(g.Moves[:3], " "), g.Moves[3], l.Game, l.LosingMove, l.Cause))
	}
	t.Logf("mined %d positions", len(lines))
	writeSuiteFile(t, quietPath, `Quiet-attack census (issue 40, docs/experiments/23-depth-four.md):
MOVES | PLAYED # SOURCE, one position a line: the moves from the empty
board in protocol notation up to White's first move after the opening
(the opening's two moves and Black's first pair, White to move), and the
pair the engine binary played there. The games are the engine's White
games of experiment 23's match against Cloudict at depth 4 that it lost
at that move, or at its next with the cause "a quiet attack before the
losing move" (arena losses); SOURCE gives the losses report's game index,
the losing move (White's moves after the opening) and the cause. Mined by
TestMineQuiet (-update-quiet); read by TestQuietCensus (-quiet-census).`, lines)
}

// censusOptions are the census's bounds: 8 attacker moves and 20,000
// positions a threat search, the attacker's 40 best replies and every
// pair within 2 of the stones, the defensive check's 15 root moves and 60
// wide pairs, 20,000,000 positions a candidate.
var censusOptions = QuietOptions{Depth: 8, Nodes: 20000, Replies: 40, Near: true, DefendMoves: 15, DefendWide: 60, MaxNodes: 20_000_000}

// deepOptions are the deeper census's bounds (-quiet-deep): censusOptions'
// replies and defences, 10 attacker moves and 200,000 positions a threat
// search, 400,000,000 positions a candidate.
var deepOptions = func() QuietOptions {
	o := censusOptions
	o.Depth, o.Nodes, o.MaxNodes = 10, 200_000, 400_000_000
	return o
}()

// TestQuietCensus (-quiet-census) runs QuietSafe on every census position
// (-quiet-limit: the first N) for White's -quiet-top root moves and the
// pair it played, and prints per position how many are quiet-safe, how
// many of those rank among the 15 best, whether the played pair is one,
// and the cost.
func TestQuietCensus(t *testing.T) {
	if !*quietCensus {
		t.Skip("run with -quiet-census [-quiet-limit N] [-quiet-top K]")
	}
	pos := loadQuiet(t, cmp.Or(*quietFile, quietPath))
	if *quietLimit > 0 && *quietLimit < len(pos) {
		pos = pos[:*quietLimit]
	}
	pos = pos[min(*quietSkip, len(pos)):]
	e := newEngine(t, tempoBaseline(t), PlaySettings())
	if *quietPlay {
		quietPlayCensus(t, e, pos)
		return
	}
	var withSafe, withTop, playedSafe, incomplete, deepSafe, deepUnknown int
	var nodes int64
	var secs float64
	for i, p := range pos {
		top, err := e.RootMoves(p.board, *quietTop)
		if err != nil {
			t.Fatal(err)
		}
		cands := top
		rank := -1
		for j, m := range top {
			if m == p.played {
				rank = j
			}
		}
		if rank < 0 {
			cands = append(append([]Move(nil), top...), p.played)
		}
		start := time.Now()
		res, err := e.QuietSafe(context.Background(), p.board, cands, censusOptions)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start).Seconds()
		var safe, safeTop, lost, attacked, unknown int
		var n int64
		var first []string
		var shallow []Move
		pSafe := false
		for j, r := range res {
			if *quietEach {
				t.Logf("    #%d %s: safe %t lost %t attack %s after %d replies, %d positions, complete %t", j+1, r.Move, r.Safe, r.Lost, r.Attack, r.Replies, r.Nodes, r.Complete)
			}
			n += r.Nodes
			switch {
			case !r.Complete:
				unknown++
			case r.Safe:
				if j < len(top) {
					safe++
					shallow = append(shallow, r.Move)
					if j < 15 {
						safeTop++
					}
					if len(first) < 3 {
						first = append(first, fmt.Sprintf("%s#%d", r.Move, j+1))
					}
				}
				if r.Move == p.played {
					pSafe = true
				}
			case r.Lost:
				lost++
			default:
				attacked++
			}
		}
		if safe > 0 {
			withSafe++
		}
		if safeTop > 0 {
			withTop++
		}
		if pSafe {
			playedSafe++
		}
		if unknown > 0 {
			incomplete++
		}
		nodes += n
		secs += took
		t.Logf("%3d %-18s played %s (rank %d): %d candidates: safe %d (top 15: %d) %v, lost at once %d, quiet attack %d, unknown %d; played safe %t; %d positions, %.1f s # %s",
			i+1, p.moves, p.played, rank+1, len(res), safe, safeTop, first, lost, attacked, unknown, pSafe, n, took, p.source)
		if *quietDeep && len(shallow) > 0 {
			held, open := deepCheck(t, e, p.board, shallow, i+1)
			if held {
				deepSafe++
			} else if open {
				deepUnknown++
			}
		}
	}
	if *quietDeep {
		t.Logf("deep census: %d of %d positions keep a quiet-safe pair at %d moves and %d positions; %d undecided (a candidate out of positions)",
			deepSafe, len(pos), deepOptions.Depth, deepOptions.Nodes, deepUnknown)
	}
	k := len(pos)
	t.Logf("census: %d positions; with a quiet-safe pair among the %d best: %d; among the 15 best: %d; played one: %d; incomplete: %d; mean %.0f positions, %.1f s a position",
		k, *quietTop, withSafe, withTop, playedSafe, incomplete, float64(nodes)/float64(k), secs/float64(k))
}

// deepCheck checks the pairs cands, found quiet-safe at the census's
// bounds, again at deepOptions' bounds in order until one holds, and logs
// each answer. held: one holds; open: none holds and one ran out of
// positions.
func deepCheck(t *testing.T, e *Engine, b *Board, cands []Move, i int) (held, open bool) {
	t.Helper()
	for j, m := range cands {
		start := time.Now()
		res, err := e.QuietSafe(context.Background(), b, []Move{m}, deepOptions)
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		t.Logf("    deep %3d: %s (safe #%d): safe %t lost %t attack %s after %d replies, %d positions, complete %t, %.1f s",
			i, m, j+1, r.Safe, r.Lost, r.Attack, r.Replies, r.Nodes, r.Complete, time.Since(start).Seconds())
		if r.Safe {
			return true, false
		}
		if !r.Complete {
			open = true
		}
	}
	return false, open
}

// TestQuietSafe: after the opening JJ GEJI and Cloudict's KIIK (game 0 of
// experiment 23's depth-4 match, which the engine lost as White), White's
// KHLH, its best root move, leaves Black no win at once, but Black's
// quiet IJHL (a pair without threats) leaves a win by continuous double
// threats after every White pair within 2 of the stones (the threat
// search, 8 moves and 20,000 positions, proves one after each of the
// 2,926), so QuietSafe must report it attacked. LHIJ, the pair through
// Black's attacking points, must be safe at the same bounds against every
// reply within 2 of the stones (deeper, at 10 moves and 200,000
// positions, Black's HKHL attacks it: the answer is the bounds'); JJ FFGG IKJL (game 20) and White's FGFH
// loses at once, and an empty candidate list gives no results.
func TestQuietSafe(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of threat search")
	}
	e := newEngine(t, tempoBaseline(t), PlaySettings())
	o := QuietOptions{Depth: 8, Nodes: 20000, Replies: 40, Near: true}
	b := boardOf(t, "JJ GEJI KIIK")
	before := b.String()
	res, err := e.QuietSafe(context.Background(), b, []Move{mv(t, "KHLH"), mv(t, "LHIJ")}, o)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != before {
		t.Fatal("QuietSafe modified the board")
	}
	if r := res[0]; r.Safe || r.Lost || !r.Complete || r.Attack.A == NoPoint || r.Attack.Len() != 2 {
		t.Errorf("KHLH: %+v, want a quiet attack", r)
	} else {
		// The attack holds: every White pair within 2 of the stones after
		// it leaves Black a proved win.
		c := b.Clone()
		play(t, c, "KHLH", r.Attack.String())
		pts := c.candidates(nil)
		for i, p := range pts {
			for _, q := range pts[i+1:] {
				d := c.Clone()
				if err := d.Play(Pair(p, q)); err != nil {
					t.Fatal(err)
				}
				if w, err := e.ProveWin(context.Background(), d, 8, 20000); err != nil || !w.Proved {
					t.Fatalf("KHLH %s %s: Black's win not proved (%v)", r.Attack, Pair(p, q), err)
				}
			}
		}
	}
	if r := res[1]; !r.Safe || !r.Complete || r.Lost || r.Attack.A != NoPoint || r.Replies < 1000 {
		t.Errorf("LHIJ: %+v, want safe after every reply", r)
	}
	res, err = e.QuietSafe(context.Background(), boardOf(t, "JJ FFGG IKJL"), []Move{mv(t, "FGFH")}, o)
	if err != nil || len(res) != 1 || !res[0].Lost || res[0].Safe {
		t.Errorf("FGFH: %+v, %v: want lost at once", res, err)
	}
	if res, err := e.QuietSafe(context.Background(), b, nil, o); err != nil || len(res) != 0 {
		t.Errorf("no candidates: %v, %v", res, err)
	}
	midTurn := b.Clone()
	midTurn.Place(PointAt(0, 0))
	for i, bad := range []struct {
		b     *Board
		cands []Move
		o     QuietOptions
	}{
		{b, []Move{mv(t, "JJKK")}, o},         // JJ is taken
		{b, []Move{Single(PointAt(3, 3))}, o}, // not a pair
		{b, nil, QuietOptions{Depth: 17}},     // depth out of range
		{b, nil, QuietOptions{Replies: MaxWidth + 1}},
		{NewBoard(), nil, o}, // empty
		{midTurn, nil, o},    // one stone of the pair placed
	} {
		if _, err := e.QuietSafe(context.Background(), bad.b, bad.cands, bad.o); err == nil {
			t.Errorf("bad call %d: no error", i)
		}
	}
}

func mv(t testing.TB, s string) Move {
	t.Helper()
	m, err := ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestQuietRoot: on TestQuietSafe's position (White's first move after
// the opening JJ GEJI and Black's KIIK), PlaySettings at a fixed depth 3
// play a pair QuietSafe finds a quiet attack against; with Settings.
// QuietSafe 60 the engine plays a pair QuietSafe reports safe at the
// census bounds, with Reason "quiet". The check runs only at White's
// first move after the opening: one move later it changes nothing.
func TestQuietRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of threat search")
	}
	b := boardOf(t, "JJ GEJI KIIK")
	check := newEngine(t, tempoBaseline(t), PlaySettings())
	for _, n := range []int{0, 60} {
		s := PlaySettings()
		s.Depth, s.QuietSafe = 3, n
		e := newEngine(t, tempoBaseline(t), s)
		r := e.Search(context.Background(), b)
		res, err := check.QuietSafe(context.Background(), b, []Move{r.Move}, censusOptions)
		if err != nil {
			t.Fatal(err)
		}
		if safe := res[0].Safe; safe != (n > 0) || (n > 0) != (r.Reason == "quiet") {
			t.Errorf("QuietSafe %d: %s (%s), quiet-safe %t: want safe only with the check", n, r.Move, r.Reason, safe)
		}
		c := b.Clone()
		play(t, c, "KHLH", "IJHL")
		if r := e.Search(context.Background(), c); r.Reason == "quiet" {
			t.Errorf("QuietSafe %d: the check ran at White's second move", n)
		}
	}
	if err := (Settings{QuietSafe: MaxWidth + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "QuietSafe") {
		t.Errorf("QuietSafe out of range: %v", err)
	}
	if err := (Settings{QuietMoves: MaxQuietMoves + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "QuietMoves") {
		t.Errorf("QuietMoves out of range: %v", err)
	}
}

// TestQuietMove: Settings.QuietMoves k puts the check at White's first k
// moves after a three-stone opening, 5, 9, ..., 4k+1 stones, and at no
// other count (Black's turns, White's first move from an empty board, a
// later White move).
func TestQuietMove(t *testing.T) {
	for _, c := range []struct {
		k     int
		at    []int
		notAt []int
	}{
		{0, []int{5}, []int{1, 3, 7, 9, 13}},
		{1, []int{5}, []int{1, 3, 7, 9}},
		{3, []int{5, 9, 13}, []int{1, 3, 7, 11, 15, 17, 21}},
	} {
		s := PlaySettings()
		s.QuietSafe, s.QuietMoves = 60, c.k
		e := newEngine(t, tempoBaseline(t), s)
		for want, list := range map[bool][]int{true: c.at, false: c.notAt} {
			for _, n := range list {
				if got := e.quietMove(&Board{n: n}); got != want {
					t.Errorf("QuietMoves %d: the check at %d stones %t, want %t", c.k, n, got, want)
				}
			}
		}
	}
}

// quietPlayCensus plays each census position as the engine binary does
// (PlaySettings, depth 12, a 4 s move clock), without and with
// Settings.QuietSafe 60, and checks each move played with QuietSafe at
// the census bounds: how many are quiet-safe, and the time a move.
func quietPlayCensus(t *testing.T, check *Engine, pos []quietPos) {
	for _, n := range []int{0, 60} {
		s := PlaySettings()
		s.Depth, s.QuietSafe = MaxDepth, n
		e := newEngine(t, tempoBaseline(t), s)
		var safe, quiet int
		var secs float64
		var nodes int64
		for i, p := range pos {
			e.NewGame()
			start := time.Now()
			r := e.SearchClock(context.Background(), p.board, Clock{Move: 4 * time.Second})
			took := time.Since(start).Seconds()
			res, err := check.QuietSafe(context.Background(), p.board, []Move{r.Move}, censusOptions)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Safe {
				safe++
			}
			if r.Reason == "quiet" {
				quiet++
			}
			secs += took
			nodes += r.Nodes
			t.Logf("QuietSafe %d: %3d %-18s %s (%s) %.2f s %d positions, quiet-safe %t", n, i+1, p.moves, r.Move, r.Reason, took, r.Nodes, res[0].Safe)
		}
		t.Logf("QuietSafe %d: %d positions: quiet-safe moves played %d (reason quiet %d), mean %.2f s and %.0f positions a move",
			n, len(pos), safe, quiet, secs/float64(len(pos)), float64(nodes)/float64(len(pos)))
	}
}
