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

// FuzzGameLogTable reads arbitrary data as a games log (ReadGameLog) and
// counts its records in a TableBuilder, as arena -resume and the live pages
// do: no panic; the records the builder takes give BuildTable's table; and
// every record read writes back (MarshalJSON) to a record that reads the
// same.
func FuzzGameLogTable(f *testing.F) {
	names := []string{"a", "b", "c"}
	var seed bytes.Buffer
	for _, g := range syntheticGames(names, 2, 3) {
		line, err := json.Marshal(g)
		if err != nil {
			f.Fatal(err)
		}
		seed.Write(line)
		seed.WriteByte('\n')
	}
	f.Add(seed.Bytes())
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
