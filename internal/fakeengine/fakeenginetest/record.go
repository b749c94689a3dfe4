package fakeenginetest

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// Record is one line of the fake engine's -record file, written at each
// "new": the process, its arguments, the option values it held and the
// lines it was sent since the previous "new" (that "new" included).
type Record struct {
	PID    int                `json:"pid"`
	Argv   []string           `json:"argv"`
	Values map[string]float64 `json:"values"`
	Sent   []string           `json:"sent"`
}

// ReadRecords reads a -record file, failing tb on a line that does not
// decode; a file that does not exist yet holds no records.
func ReadRecords(tb testing.TB, path string) []Record {
	tb.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []Record
	in := bufio.NewScanner(f)
	for in.Scan() {
		var r Record
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			tb.Fatalf("%s: %v in %q", path, err, in.Text())
		}
		out = append(out, r)
	}
	if err := in.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}
