package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func TestPlayGameTrivialPlayers(t *testing.T) {
	b := engine.NewBoard()
	rec, err := PlayGame(context.Background(), b, &firstLegal{}, &firstLegal{}, mustOpening(t, "JJ KJJK"), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Replay the record independently: every move legal, the end as claimed.
	r := engine.NewBoard()
	for i, m := range rec.Moves {
		if err := r.Play(m); err != nil {
			t.Fatalf("move %d %s: %v", i, m, err)
		}
	}
	if rec.Reason != ReasonSix || r.Winner() == engine.Empty {
		t.Fatalf("reason %q, winner %v", rec.Reason, r.Winner())
	}
	want := BlackWins
	if r.Winner() == engine.White {
		want = WhiteWins
	}
	if rec.Result != want {
		t.Errorf("result %v, want %v", rec.Result, want)
	}
	if rec.Moves[0].String() != "JJ" || rec.Moves[1].String() != "KJJK" || rec.Opening != "JJ KJJK" {
		t.Errorf("opening not recorded: %v %q", rec.Moves[:2], rec.Opening)
	}
	if rec.Nodes[0] == 0 || rec.Nodes[1] == 0 {
		t.Errorf("nodes %v", rec.Nodes)
	}
	if b.Stones() != r.Stones() {
		t.Errorf("board left with %d stones, replay %d", b.Stones(), r.Stones())
	}
}

func TestPlayGameMoveLimitAndForfeits(t *testing.T) {
	ctx := context.Background()
	b := engine.NewBoard()
	rec, err := PlayGame(ctx, b, &firstLegal{}, &firstLegal{}, mustOpening(t, "JJ KJJK"), 5)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result != Draw || rec.Reason != ReasonMoveLimit || len(rec.Moves) != 5 {
		t.Errorf("move limit: %v %q after %d moves", rec.Result, rec.Reason, len(rec.Moves))
	}

	// An occupied point: White forfeits.
	jj := engine.PointAt(9, 9)
	rec, err = PlayGame(ctx, b, &firstLegal{}, &scripted{move: engine.Pair(jj, jj+1)}, Opening{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result != BlackWins || rec.Reason != "forfeit:illegal" || !strings.HasPrefix(rec.Detail, "white: ") {
		t.Errorf("illegal: %v %q %q", rec.Result, rec.Reason, rec.Detail)
	}
	// One stone where two are due.
	rec, _ = PlayGame(ctx, b, &firstLegal{}, &scripted{move: engine.Single(jj + 1)}, Opening{}, 0)
	if rec.Reason != "forfeit:illegal" {
		t.Errorf("wrong stone count: %q", rec.Reason)
	}
	// A player's own forfeit.
	rec, _ = PlayGame(ctx, b, &scripted{err: &Forfeit{Kind: ForfeitTimeout, Detail: "slow"}}, &firstLegal{}, Opening{}, 0)
	if rec.Result != WhiteWins || rec.Reason != "forfeit:timeout" || rec.Detail != "black: slow" {
		t.Errorf("timeout: %v %q %q", rec.Result, rec.Reason, rec.Detail)
	}
	// Other errors abort.
	boom := errors.New("boom")
	if _, err := PlayGame(ctx, b, &scripted{err: boom}, &firstLegal{}, Opening{}, 0); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := PlayGame(cctx, b, &firstLegal{}, &firstLegal{}, Opening{}, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// winOnFirstStone answers a pair whose first stone completes six.
type winOnFirstStone struct{}

func (winOnFirstStone) NewGame(context.Context, Opening, engine.Color) error { return nil }
func (winOnFirstStone) Play(_ context.Context, b *engine.Board, _ engine.Move) (Reply, error) {
	// Black has JJ..NJ (five in row J); play OJ (six) and a second stone.
	return Reply{Move: engine.Pair(engine.PointAt(14, 9), engine.PointAt(0, 0))}, nil
}
func (winOnFirstStone) Close() error { return nil }

func TestPlayGameWinOnFirstStoneRecordsOneStone(t *testing.T) {
	o := mustOpening(t, "JJ AAAC KJLJ AEAG MJNJ AIAK")
	rec, err := PlayGame(context.Background(), engine.NewBoard(), winOnFirstStone{}, &firstLegal{}, o, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Moves[len(rec.Moves)-1]
	if rec.Result != BlackWins || rec.Reason != ReasonSix || last != engine.Single(engine.PointAt(14, 9)) {
		t.Errorf("%v %q last %v", rec.Result, rec.Reason, last)
	}
}

func TestGameRecordJSONAndSGF(t *testing.T) {
	rec, err := PlayGame(context.Background(), engine.NewBoard(), &firstLegal{}, &firstLegal{}, mustOpening(t, "JJ KJJK"), 7)
	if err != nil {
		t.Fatal(err)
	}
	rec.Game, rec.Pair, rec.Black, rec.White, rec.BlackIndex, rec.WhiteIndex = 3, 1, "a]b", "c", 1, 0
	rec.Detail = "x"
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"result":"0"`, `"reason":"move-limit"`, `"moves":["JJ","KJJK","AABA"`, `"opening":"JJ KJJK"`, `"time_s":[`, `"nodes":[`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON %s lacks %s", data, want)
		}
	}
	var back GameRecord
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	back.Time, rec.Time = [2]time.Duration{}, [2]time.Duration{} // times round through float seconds
	if !reflect.DeepEqual(back, rec) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, rec)
	}
	if err := json.Unmarshal([]byte(`{"result":"1-0"}`), &back); err == nil {
		t.Error("bad result accepted")
	}
	const whole = `{"game":0,"pair":0,"black":"a","white":"b","black_index":0,"white_index":1,"opening":"","result":"0","reason":"six","moves":["JJ","ZZ"]}`
	if err := json.Unmarshal([]byte(whole), &back); err == nil || !strings.Contains(err.Error(), "moves[1]") {
		t.Errorf("bad move: %v", err)
	}

	sgf := rec.SGF()
	want := "(;FF[4]CA[UTF-8]AP[roadtune]SZ[19]GM[4]RU[Connect6]\nPB[a\\]b]PW[c]RE[0]\nXOPENING[JJ KJJK]XREASON[move-limit]C[x]\n;B[jj];W[kj];W[jk];B[aa];B[ba]"
	if !strings.HasPrefix(sgf, want) {
		t.Errorf("SGF:\n%s\nwant prefix\n%s", sgf, want)
	}
	if n := strings.Count(sgf, ";B[") + strings.Count(sgf, ";W["); n != 1+2*6 {
		t.Errorf("SGF has %d stones, want 13", n)
	}
	if rec.SGFName() != "game-000003.sgf" {
		t.Errorf("SGFName %q", rec.SGFName())
	}
}

// TestGameRecordRequiredFields: a record lacking a field every game has,
// or with an empty name or a negative number, does not decode, and the
// error names the field.
func TestGameRecordRequiredFields(t *testing.T) {
	const whole = `{"game":2,"pair":1,"black":"a","white":"b","black_index":0,"white_index":1,"opening":"","result":"B+","reason":"six","moves":["JJ"]}`
	var g GameRecord
	if err := json.Unmarshal([]byte(whole), &g); err != nil || g.Game != 2 || g.Result != BlackWins || g.White != "b" {
		t.Fatalf("whole record: %+v, %v", g, err)
	}
	for _, c := range []struct{ name, line, want string }{
		{"empty object", `{}`, `fields "game", "pair", "black", "white", "black_index", "white_index", "opening", "result", "reason", "moves" missing`},
		{"no result", strings.Replace(whole, `"result":"B+",`, "", 1), `field "result" missing`},
		{"null result", strings.Replace(whole, `"result":"B+"`, `"result":null`, 1), `field "result" missing`},
		{"no players", strings.Replace(strings.Replace(whole, `"black":"a",`, "", 1), `"white":"b",`, "", 1), `fields "black", "white" missing`},
		{"no moves", strings.Replace(whole, `,"moves":["JJ"]`, "", 1), `field "moves" missing`},
		{"empty name", strings.Replace(whole, `"white":"b"`, `"white":""`, 1), "name is empty"},
		{"negative index", strings.Replace(whole, `"black_index":0`, `"black_index":-1`, 1), "must not be negative"},
		{"bad result", strings.Replace(whole, `"B+"`, `"1-0"`, 1), "want B+, W+ or 0"},
	} {
		err := json.Unmarshal([]byte(c.line), &g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestReasonWords: every way a game ends reads as words, forfeits with
// their kind.
func TestReasonWords(t *testing.T) {
	for reason, want := range map[string]string{
		ReasonSix:                   "by six in a row",
		ReasonFullBoard:             "on a full board (drawn)",
		ReasonMoveLimit:             "at the move limit (drawn)",
		"forfeit:" + ForfeitTimeout: "by forfeit (timeout)",
		"adjudicated":               "adjudicated",
	} {
		if got := ReasonWords(reason); got != want {
			t.Errorf("ReasonWords(%q) = %q, want %q", reason, got, want)
		}
	}
}
