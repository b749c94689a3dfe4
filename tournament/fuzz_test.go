package tournament

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
)

// FuzzOpenings reads arbitrary text as an opening suite: no panic, errors
// name the suite, and every opening read writes back (Opening.String) to
// text ParseOpening reads as the same moves.
func FuzzOpenings(f *testing.F) {
	f.Add("JJ KJJK\n# a comment\n\nempty\nJJ IJJI KKLL # trailing\n")
	f.Add("JJ KJJK IJJI\njj kjjk\n")
	f.Add("JJ JJKK\n")
	f.Add("JJ KJJK KLLK MJJM NJJN\n")
	f.Add("JJJJ\nAA\n")
	f.Add("\n# nothing\n")
	f.Fuzz(func(t *testing.T, text string) {
		ops, err := ReadOpenings("suite.txt", strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "suite.txt:") {
				t.Fatalf("error without the suite's name: %v", err)
			}
			return
		}
		for i, o := range ops {
			back, err := ParseOpening(o.String())
			if err != nil || !slices.Equal(back.Moves, o.Moves) {
				t.Fatalf("opening %d %q reads back as %v (%v)", i, o, back, err)
			}
		}
	})
}

// FuzzTimeControl reads arbitrary text as arena's tc= and st= values: no
// panic, and a time control that parses is valid and writes back
// (TimeControl.String) to the same time control.
func FuzzTimeControl(f *testing.F) {
	for _, s := range []string{"60+0.5", "40/120", "1:00+1", "inf", "0.25", "1:30", "40/0", "/", "+", "1:60", "1e7", "9999999999", "-1", "NaN", "0x10", "3/1:59.5+0:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParseSeconds(s); err == nil {
			st := TimeControl{PerMove: d}
			if err := st.Validate(); err != nil {
				t.Fatalf("st=%s: %v", s, err)
			}
			if d > 0 {
				back, err := ParseSeconds(strings.TrimPrefix(st.String(), "st="))
				if err != nil || back != d {
					t.Fatalf("st=%s is %v, written %q, read back %v (%v)", s, d, st, back, err)
				}
			}
		}
		tc, err := ParseTC(s)
		if err != nil {
			if !strings.Contains(err.Error(), "tc ") {
				t.Fatalf("error without the tc: %v", err)
			}
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("tc=%s parses to an invalid %+v: %v", s, tc, err)
		}
		if tc.IsZero() {
			return // inf
		}
		back, err := ParseTC(strings.TrimPrefix(tc.String(), "tc="))
		if err != nil || back != tc {
			t.Fatalf("tc=%s is %+v, written %q, read back %+v (%v)", s, tc, tc, back, err)
		}
	})
}

// gameLogSeed is a games log of synthetic games (syntheticGames).
func gameLogSeed(f *testing.F, names []string, pairs int, seed uint64) []byte {
	var log bytes.Buffer
	for _, g := range syntheticGames(names, pairs, seed) {
		line, err := json.Marshal(g)
		if err != nil {
			f.Fatal(err)
		}
		log.Write(line)
		log.WriteByte('\n')
	}
	return log.Bytes()
}

// FuzzGameLogTable reads arbitrary data as a games log (ReadGameLog) and
// counts its records in a TableBuilder, as arena -resume and the live pages
// do: no panic; the records the builder takes give BuildTable's table; and
// every record read writes back (MarshalJSON) to a record that reads the
// same.
func FuzzGameLogTable(f *testing.F) {
	names := []string{"a", "b", "c"}
	f.Add(gameLogSeed(f, names, 2, 3))
	f.Add([]byte("{}\n"))
	f.Add([]byte(`{"game":-1,"pair":0,"black":"a","white":"b","black_index":0,"white_index":1,"moves":["JJ","KKLL"],"result":"1-0"}` + "\n"))
	f.Add([]byte(`{"game":9223372036854775807,"black_index":1,"white_index":0,"black":"b","white":"a","result":"0-1"}` + "\n{\"moves\":[\"ZZ\"]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "games.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		recs, err := ReadGameLog(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		b := NewTableBuilder(names, true)
		var taken []GameRecord
		for _, g := range recs {
			if b.Add(g) == nil {
				taken = append(taken, g)
			}
			line, err := json.Marshal(g)
			if err != nil {
				continue // a time JSON cannot hold
			}
			var back GameRecord
			if err := json.Unmarshal(line, &back); err != nil {
				t.Fatalf("record %s written back does not read: %v", line, err)
			}
			again, _ := json.Marshal(back)
			if !bytes.Equal(line, again) {
				t.Fatalf("record %s reads back as %s", line, again)
			}
		}
		want, err := BuildTable(names, taken)
		if err != nil {
			t.Fatalf("BuildTable refuses the records the builder took: %v", err)
		}
		if got := b.Table(); !reflect.DeepEqual(got, want) {
			t.Fatalf("builder table\n%+v\nBuildTable\n%+v", got, want)
		}
	})
}

// FuzzResumeGames replays arbitrary data as the games log of a match that
// arena -resume continues (ResumeGames, each game checked by a
// TableBuilder as arena's resume does): no panic; an error names the log
// or the game; every game handed on is Bare, and every game taken has its
// SGF file in sgf/ afterwards, which holds nothing else; and a second replay rebuilds nothing and
// hands on the same games.
func FuzzResumeGames(f *testing.F) {
	names := []string{"a", "b", "c"}
	f.Add(gameLogSeed(f, names, 1, 5))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"game":0,"pair":0,"black":"a","white":"b","black_index":0,"white_index":1,"moves":["JJ","KKLL"],"result":"1-0"}` + "\n" +
		`{"game":0,"pair":0,"black":"a","white":"b","black_index":0,"white_index":1,"result":"1-0"}` + "\n"))
	f.Add([]byte(`{"game":1,"pair":0,"black":"b","white":"z","black_index":1,"white_index":7,"result":"0-1"}` + "\n"))
	f.Add([]byte(`{"game":-3,"black":"a","white":"b","black_index":0,"white_index":1,"result":"1/2-1/2"}` + "\n{\"game\":4"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path, sgfDir := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "sgf")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		replay := func() ([]GameRecord, int, error) {
			b := NewTableBuilder(names, false)
			var got []GameRecord
			rebuilt, err := ResumeGames(path, sgfDir, func(g GameRecord) error {
				if len(g.Moves) > 0 || len(g.MoveTimes) > 0 || g.Detail != "" {
					t.Fatalf("game %d handed on with its moves", g.Game)
				}
				if err := b.Add(g); err != nil {
					return err
				}
				got = append(got, g)
				return nil
			})
			return got, rebuilt, err
		}
		games, rebuilt, err := replay()
		for _, g := range games {
			// fn sees a game before its SGF is written (a refused record
			// writes none); every game it took has one after.
			if _, err := os.Stat(filepath.Join(sgfDir, g.SGFName())); err != nil {
				t.Fatalf("game %d taken without its SGF: %v", g.Game, err)
			}
		}
		if err != nil && !strings.Contains(err.Error(), path) && !strings.Contains(err.Error(), "game ") {
			t.Fatalf("error names neither the log nor a game: %v", err)
		}
		ents, _ := os.ReadDir(sgfDir)
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), "game-") || !strings.HasSuffix(e.Name(), ".sgf") {
				t.Fatalf("sgf/ holds %q", e.Name())
			}
		}
		if rebuilt > len(ents) {
			t.Fatalf("%d SGF files rebuilt, %d in sgf/", rebuilt, len(ents))
		}
		again, rebuilt2, err2 := replay()
		if rebuilt2 != 0 || (err == nil) != (err2 == nil) || !reflect.DeepEqual(games, again) {
			t.Fatalf("second replay: %d rebuilt, %d games (%v); first: %d games (%v)", rebuilt2, len(again), err2, len(games), err)
		}
	})
}

// FuzzParseLine classifies arbitrary engine output lines as the driver of
// an external engine does (parseLine): no panic; a line is a move exactly
// when protocol.ParseReply reads one, the same move, which writes back to
// itself; a malformed move says why; a name is at most nameMax bytes and,
// when cut, valid UTF-8; free text carries no move and no text.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"move JJ", "move jjkk", " MOVE JJ KK ", "move", "move ZZ9", "move J10 K10", "move XXXX   - tell the engine",
		"name roadtune 1.0", "name\t-", "    name   - print the name", "result black", "error no", "optionsok",
		"option name Width type spin default 8 min 1 max 64", "name " + strings.Repeat("é", 80), ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		kind, m, s := parseLine(line)
		r := protocol.ParseReply(line)
		if (kind == lineMove) != (r.Kind == protocol.MoveReply) {
			t.Fatalf("%q: driver's kind %v, protocol's %v", line, kind, r.Kind)
		}
		switch kind {
		case lineMove:
			back, err := engine.ParseMove(m.String())
			if m != r.Move || err != nil || back != m {
				t.Fatalf("%q: move %v (protocol's %v), written %q and read back %v, %v", line, m, r.Move, m.String(), back, err)
			}
		case lineMalformed:
			if s == "" || m != NoMove {
				t.Fatalf("%q: malformed with move %v and reason %q", line, m, s)
			}
		case lineName:
			if s == "" && r.Text != "" && len(r.Text) <= nameMax || len(s) > nameMax || len(r.Text) > nameMax && !utf8.ValidString(s) {
				t.Fatalf("%q: name %q", line, s)
			}
		case lineText:
			if m != NoMove || s != "" {
				t.Fatalf("%q: free text with move %v and text %q", line, m, s)
			}
		}
	})
}
