package tune

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune/budget"
)

// fuzzRun is a tiny GA run of two steps, played once per fuzzing process,
// whose files the run-directory targets copy and corrupt.
func fuzzRun(f *testing.F) (files map[string][]byte) {
	f.Helper()
	cfg, err := Parse("ga.toml", []byte(tunetest.Tiny("ga")))
	if err != nil {
		f.Fatal(err)
	}
	dir := filepath.Join(f.TempDir(), "run")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	if err := j.Steps(context.Background(), 2); err != nil {
		f.Fatal(err)
	}
	files = map[string][]byte{}
	for _, name := range []string{FileConfig, FileCheckpoint, FileRecords} {
		if files[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			f.Fatal(err)
		}
	}
	return files
}

// writeRun writes files into a new run directory and returns it.
func writeRun(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzCheckpointRun reads arbitrary data as the checkpoint.json of a run
// whose config and records are good, as export, compare and the status
// pages open a run (Open: checkHead, checkRun, readRecords): no panic; an
// error is an *InputError or names a file of the run; a run that opens
// has counts ≥ 0 (stall ≤ steps), one record per step numbered in order
// whose games add up to the status's, the last record's best vector as
// its own, and the checkpoint written back opens to the same run.
func FuzzCheckpointRun(f *testing.F) {
	files := fuzzRun(f)
	cp := files[FileCheckpoint]
	f.Add(cp)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cp, &m); err != nil {
		f.Fatal(err)
	}
	for k, v := range map[string]string{"records_bytes": "-1", "status": `{"steps":2,"games":-5}`, "phase": `"done"`, "version": "1", "best": "[]", "state": `{}`} {
		bad := map[string]json.RawMessage{}
		for k2, v2 := range m {
			bad[k2] = v2
		}
		bad[k] = json.RawMessage(v)
		data, err := json.Marshal(bad)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		run := map[string][]byte{FileConfig: files[FileConfig], FileRecords: files[FileRecords], FileCheckpoint: data}
		dir := writeRun(t, run)
		r, err := ReadRun(dir)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) && !strings.Contains(err.Error(), dir) {
				t.Fatalf("error neither an input error nor naming the run: %v", err)
			}
			return
		}
		st := r.Status
		if st.Steps < 0 || st.Games < 0 || st.Stall < 0 || st.Stall > st.Steps || !(st.Seconds >= 0) || len(r.Records) != st.Steps {
			t.Fatalf("opened with status %+v and %d records", st, len(r.Records))
		}
		games := 0
		for i, rec := range r.Records {
			if rec.Step != i || rec.Games < 0 {
				t.Fatalf("record %d: step %d, games %d", i, rec.Step, rec.Games)
			}
			games += rec.Games
		}
		if games != st.Games || len(r.Records) > 0 && !slices.Equal(r.Records[len(r.Records)-1].Best, r.Best) {
			t.Fatalf("records of %d games for a status of %d, or a best vector %v not the last record's", games, st.Games, r.Best)
		}
		var c checkpoint
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("a checkpoint that opened does not decode: %v", err)
		}
		again, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		run[FileCheckpoint] = again
		r2, err := ReadRun(writeRun(t, run))
		if err != nil || r2.Status != r.Status || r2.Phase != r.Phase || !slices.Equal(r2.Best, r.Best) || len(r2.Records) != len(r.Records) {
			t.Fatalf("the checkpoint written back opens as %+v, %v; first %+v", r2, err, r)
		}
	})
}

// FuzzReadRecords reads arbitrary data as generations.jsonl with the
// checkpoint's step count n and records_bytes size (readRecords): no
// panic; an error names the file; records read are n, numbered 0 to n−1,
// with games ≥ 0; with trim the file is cut to size, and read again it
// gives the same records.
func FuzzReadRecords(f *testing.F) {
	files := fuzzRun(f)
	recs := files[FileRecords]
	f.Add(recs, 2, int64(len(recs)))
	f.Add(recs, 1, int64(len(recs)))
	f.Add(append(slices.Clone(recs), `{"step":2,"gam`...), 2, int64(len(recs)))
	f.Add(recs, 2, int64(-1))
	f.Add(recs, 2, int64(1<<40))
	f.Add([]byte{}, 0, int64(0))
	f.Add([]byte(`{"step":0,"games":-5,"best":[1]}`+"\n"), 1, int64(33))
	f.Fuzz(func(t *testing.T, data []byte, n int, size int64) {
		path := filepath.Join(t.TempDir(), FileRecords)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readRecords(path, n, size, false)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if len(got) != n {
			t.Fatalf("%d records where the checkpoint counts %d", len(got), n)
		}
		for i, r := range got {
			if r.Step != i || r.Games < 0 {
				t.Fatalf("record %d: step %d, games %d", i, r.Step, r.Games)
			}
		}
		if _, err := readRecords(path, n, size, true); err != nil {
			t.Fatalf("trimming what read: %v", err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != size && !(n == 0 && size == 0 && len(data) == 0) {
			t.Fatalf("trimmed to %v bytes (%v), want %d", st.Size(), err, size)
		}
		again, err := readRecords(path, n, size, false)
		if err != nil || len(again) != len(got) {
			t.Fatalf("the trimmed file reads as %d records, %v", len(again), err)
		}
	})
}

// FuzzChainFile reads arbitrary data as a chain's chain.json, as compare,
// export and the status pages do (ReadChainFile, Group): no panic; an
// error is an *InputError or a config's error naming the chain file; a
// chain that reads has stages, each a valid config in its stage
// directory, as many as Group lists.
func FuzzChainFile(f *testing.F) {
	var stages []ChainStage
	for k, m := range []string{"texel", "spsa"} {
		c, err := Parse(m+".toml", []byte(tunetest.Tiny(m)))
		if err != nil {
			f.Fatal(err)
		}
		enc, err := c.Encode()
		if err != nil {
			f.Fatal(err)
		}
		stages = append(stages, ChainStage{Dir: filepath.Base(StageDir("", k+1, m)), Config: string(enc)})
	}
	for _, cf := range []ChainFile{{Version: chainVersion, Stages: stages}, {Version: chainVersion, Stages: stages[:1]},
		{Version: chainVersion, Stages: stages, Budget: &budget.Chain{Seconds: 60, Games: []int{1}}}, {Version: 2, Stages: stages}} {
		data, err := json.Marshal(cf)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version":1,"stages":[{"dir":"stage-1-ga","config":"method = \"ga\""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, FileChain)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cf, cs, err := ReadChainFile(dir)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) && !strings.Contains(err.Error(), path) {
				t.Fatalf("error neither an input error nor naming the file: %v", err)
			}
			return
		}
		if len(cs) == 0 || len(cs) != len(cf.Stages) {
			t.Fatalf("%d stages read of %d", len(cs), len(cf.Stages))
		}
		for k, c := range cs {
			if err := c.Validate(); err != nil {
				t.Fatalf("stage %d read, but invalid: %v", k+1, err)
			}
			if cf.Stages[k].Dir != filepath.Base(StageDir(dir, k+1, c.Method)) {
				t.Fatalf("stage %d in directory %q", k+1, cf.Stages[k].Dir)
			}
		}
	})
}
