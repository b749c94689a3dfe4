package positions

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// countingSampler returns a fixed batch and counts its Sample calls.
type countingSampler struct {
	calls int
	pos   []optimize.Position
}

func (c *countingSampler) Play(ctx context.Context, seed uint64, m []optimize.Match) ([]optimize.Outcome, error) {
	out, _, err := c.Sample(ctx, seed, m)
	return out, err
}

func (c *countingSampler) Sample(_ context.Context, seed uint64, m []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	c.calls++
	out := make([]optimize.Outcome, len(m))
	for i := range out {
		out[i] = optimize.Outcome{Wins: int(seed % 3), Draws: i, Losses: 1}
	}
	return out, c.pos, nil
}

// TestPositionStore: a batch is played once and read back from its file
// after that; a file of other matches, or a damaged one, is replaced by a
// replay.
func TestPositionStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), Dir)
	inner := &countingSampler{pos: []optimize.Position{
		{X: []float64{1, -2, 0, 0, 0.5}, Tempo: 1, Y: 1, Game: 0},
		{X: []float64{-1, 2, 0, 0, -0.5}, Tempo: -1, Y: 0, Game: 0},
		{X: []float64{3, 0, 1, 0, 0}, Tempo: 1, Y: 0.5, Game: 7},
	}}
	s := &Store{Sampler: inner, Dir: dir, Genes: []string{"S1", "S2", "S3", "S4", "S5"}}
	m := []optimize.Match{{A: []float64{1, 2, 3, 4, 5}, B: []float64{5, 4, 3, 2, 1.5}}, {A: []float64{1, 1, 1, 1, 1}, B: []float64{2, 2, 2, 2, 2}}}
	out1, pos1, err := s.Sample(context.Background(), 0xabc, m)
	if err != nil {
		t.Fatal(err)
	}
	out2, pos2, err := s.Sample(context.Background(), 0xabc, m)
	if err != nil {
		t.Fatal(err)
	}
	if inner.calls != 1 {
		t.Fatalf("the sampler played %d times for one batch, want 1", inner.calls)
	}
	if !reflect.DeepEqual(out1, out2) || !reflect.DeepEqual(pos1, pos2) || !reflect.DeepEqual(pos2, inner.pos) {
		t.Fatalf("read back %v %v, played %v %v", out2, pos2, out1, pos1)
	}
	path := filepath.Join(dir, "0000000000000abc.csv.gz")
	if _, _, err := Read(path, 5); err != nil {
		t.Fatal(err)
	}
	// Other matches under the same seed: replayed.
	m2 := []optimize.Match{{A: []float64{1, 2, 3, 4, 6}, B: []float64{5, 4, 3, 2, 1.5}}, m[1]}
	if _, _, err := s.Sample(context.Background(), 0xabc, m2); err != nil || inner.calls != 2 {
		t.Fatalf("other matches: %v, %d calls", err, inner.calls)
	}
	// A damaged file: replayed and rewritten.
	if err := os.WriteFile(path, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(path, 5); err == nil {
		t.Error("Read accepted a damaged file")
	}
	if _, _, err := s.Sample(context.Background(), 0xabc, m); err != nil || inner.calls != 3 {
		t.Fatalf("damaged file: %v, %d calls", err, inner.calls)
	}
	if _, _, err := s.Sample(context.Background(), 0xabc, m); err != nil || inner.calls != 3 {
		t.Fatalf("after the rewrite: %v, %d calls", err, inner.calls)
	}
}

// FuzzPositions reads arbitrary text, gzipped, as a positions file of 5
// genes: no panic, errors name the file, and what reads writes back
// (encode) to a file that reads the same.
func FuzzPositions(f *testing.F) {
	genes := []string{"a", "b", "c", "d", "e"}
	f.Add([]byte("# roadtune positions v1\n# seed 7\n# matches abc\n# outcomes 1/0/1 2/0/0\ngame,tempo,y,a,b,c,d,e\n0,1,1,0,1,-2,3,0\n1,-1,0,1,1,1,1,1\n"))
	f.Add([]byte("# roadtune positions v1\ngame,tempo,y,a,b,c,d,e\n"))
	f.Add([]byte("# roadtune positions v1\n# outcomes 1/x/1\n"))
	f.Add([]byte("# roadtune positions v1\ngame,tempo,y,a,b,c,d,e\n0,1,NaN,1e309,0,0,0,0\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		dir := t.TempDir()
		write := func(name string, data []byte) string {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(data)
			zw.Close()
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		path := write("fuzz.csv.gz", text)
		b, pos, err := Read(path, len(genes))
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		enc, err := encode(b, pos, genes)
		if err != nil {
			t.Fatalf("encode of what was read: %v", err)
		}
		p2 := filepath.Join(dir, "again.csv.gz")
		if err := os.WriteFile(p2, enc, 0o644); err != nil {
			t.Fatal(err)
		}
		b2, pos2, err := Read(p2, len(genes))
		if err != nil {
			t.Fatalf("a written positions file does not read: %v", err)
		}
		enc2, err := encode(b2, pos2, genes)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("positions changed through a write and a read (%v)", err)
		}
	})
}
