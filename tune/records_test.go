package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestReadRecordsRefuses: a records file that is not a regular file
// within 64 MiB, and a record lacking a field every record has, are bad
// input naming the file (and the line).
func TestReadRecordsRefuses(t *testing.T) {
	for _, h := range fileiotest.Files(t) {
		_, err := readRecords(h.Path, 1, 10, false)
		if err == nil || !strings.HasPrefix(err.Error(), h.Path+": ") || !fileio.IsInput(err) {
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
