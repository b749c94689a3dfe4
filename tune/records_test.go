package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestReadRecordsRefuses: a records file that is not a regular file
// within 2 GiB (a 100 MB file of no records is read and refused at its
// first line), and a record lacking a field every record has, are bad
// input naming the file (and the line).
func TestReadRecordsRefuses(t *testing.T) {
	for _, h := range fileiotest.Files(t) {
		_, err := readRecords(h.Path, 1, 10, false)
		if err == nil || !strings.HasPrefix(err.Error(), h.Path+":") || !fileio.IsInput(err) {
			t.Errorf("%s: %v", h.Name, err)
		}
	}
	const good = `{"step":0,"games":4,"seconds":0.5,"best":[1,2]}` + "\n"
	for _, c := range []struct{ name, second, want string }{
		{"good", `{"step":1,"games":4,"seconds":0.5,"best":[1,2]}`, ""},
		{"empty record", `{}`, `records.jsonl:2: field "step" missing`},
		{"no best", `{"step":1,"games":4,"seconds":0.5}`, `records.jsonl:2: field "best" missing`},
		{"null best", `{"step":1,"games":4,"seconds":0.5,"best":null}`, `records.jsonl:2: field "best" missing`},
		{"no games", `{"step":1,"seconds":0.5,"best":[1,2]}`, `records.jsonl:2: field "games" missing`},
	} {
		p := filepath.Join(t.TempDir(), "records.jsonl")
		data := good + c.second + "\n"
		os.WriteFile(p, []byte(data), 0o644)
		recs, err := readRecords(p, 2, int64(len(data)), false)
		switch {
		case c.want == "" && (err != nil || len(recs) != 2):
			t.Errorf("%s: %d records, %v", c.name, len(recs), err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !fileio.IsInput(err)):
			t.Errorf("%s: %v, want bad input containing %q", c.name, err, c.want)
		}
	}
}

// TestReadRecordsOfALongRun: a run by the clock writes as many records as
// its hours allow; 70 MB of SPSA-sized records (past the 64 MiB the cap
// once was, which failed a 1.5-hour chain after its tuning) read back.
func TestReadRecordsOfALongRun(t *testing.T) {
	metrics := strings.Repeat(`"theta_norm.M1":0.043147900850135555,`, 50)
	var b strings.Builder
	n := 0
	for b.Len() < 70<<20 {
		fmt.Fprintf(&b, `{"step":%d,"games":16,"seconds":0.16,"best":[84.85,882.23,3165.43,7780.05],"metrics":{%s"r":6}}`+"\n", n, metrics)
		n++
	}
	p := filepath.Join(t.TempDir(), "generations.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := readRecords(p, n, int64(b.Len()), false)
	if err != nil || len(recs) != n {
		t.Fatalf("%d MB of records: %d of %d read, %v", b.Len()>>20, len(recs), n, err)
	}
}
