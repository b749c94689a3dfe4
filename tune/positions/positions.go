package positions

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
)

// Dir is the directory of a run that holds the positions of every
// Sample batch (Texel tuning), one file per batch, so a refit needs no
// replay and a resumed run reads a batch it already played instead of
// playing it again.
const Dir = "positions"

// Store is an optimize.Sampler that keeps the positions of every
// batch in Dir (a run's positions directory): Sample reads the batch's file
// when it holds the same batch (seed, matches, gene count), else asks
// Sampler and writes the file atomically. Play is Sampler's.
//
// File format (gzip-compressed text, named <seed as 16 hex digits>.csv.gz):
// comment lines "# roadtune positions v1", "# seed S", "# matches H" (the
// SHA-256 of the matches' genes), "# outcomes W/D/L W/D/L …" (one per match),
// then a CSV header "game,tempo,y,<gene names>" and one line per position
// (optimize.Position: Game, Tempo, Y, X).
type Store struct {
	Sampler optimize.Sampler
	Dir     string
	Genes   []string // gene names, for the CSV header and the shape check
}

var _ optimize.Sampler = (*Store)(nil)

// Play implements optimize.Referee.
func (s *Store) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	return s.Sampler.Play(ctx, seed, matches)
}

// Sample implements optimize.Sampler.
func (s *Store) Sample(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	path := filepath.Join(s.Dir, fmt.Sprintf("%016x.csv.gz", seed))
	key := matchesKey(matches)
	// A missing, damaged or foreign file is replaced by a replay, never
	// trusted.
	if old, pos, err := Read(path, len(s.Genes)); err == nil &&
		old.Key == key && old.Seed == seed && len(old.Outcomes) == len(matches) {
		return old.Outcomes, pos, nil
	}
	outcomes, pos, err := s.Sampler.Sample(ctx, seed, matches)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, nil, err
	}
	data, err := encode(Batch{Seed: seed, Key: key, Outcomes: outcomes}, pos, s.Genes)
	if err != nil {
		return nil, nil, err
	}
	if err := fileio.WriteAtomic(path, data); err != nil {
		return nil, nil, err
	}
	return outcomes, pos, nil
}

// Batch is the header of a positions file.
type Batch struct {
	Seed     uint64
	Key      string // SHA-256 of the matches, hex
	Outcomes []optimize.Outcome
}

// matchesKey is the SHA-256 of the matches' genes (bits of every float).
func matchesKey(matches []optimize.Match) string {
	h := sha256.New()
	var buf [8]byte
	for _, m := range matches {
		for _, v := range [][]float64{m.A, m.B} {
			binary.LittleEndian.PutUint64(buf[:], uint64(len(v)))
			h.Write(buf[:])
			for _, x := range v {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
				h.Write(buf[:])
			}
		}
		if m.OpeningSet != 0 { // keys of batches without opening sets stay as they were
			fmt.Fprintf(h, "set%d", m.OpeningSet)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func encode(b Batch, pos []optimize.Position, genes []string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	w := bufio.NewWriter(zw)
	fmt.Fprintf(w, "# roadtune positions v1\n# seed %d\n# matches %s\n# outcomes", b.Seed, b.Key)
	for _, o := range b.Outcomes {
		fmt.Fprintf(w, " %d/%d/%d", o.Wins, o.Draws, o.Losses)
	}
	fmt.Fprintf(w, "\ngame,tempo,y,%s\n", strings.Join(genes, ","))
	line := make([]byte, 0, 128)
	for _, p := range pos {
		if len(p.X) != len(genes) {
			return nil, fmt.Errorf("positions: a position has %d features, want %d", len(p.X), len(genes))
		}
		line = strconv.AppendInt(line[:0], int64(p.Game), 10)
		line = append(line, ',')
		line = strconv.AppendFloat(line, p.Tempo, 'g', -1, 64)
		line = append(line, ',')
		line = strconv.AppendFloat(line, p.Y, 'g', -1, 64)
		for _, v := range p.X {
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
		}
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Read reads a positions file written by Store; genes is
// the number of features per position. Errors name the file and line.
func Read(path string, genes int) (Batch, []optimize.Position, error) {
	var b Batch
	f, _, err := fileio.Open(path, fileio.Positions)
	if err != nil {
		return b, nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return b, nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var pos []optimize.Position
	n, header := 0, false
	for sc.Scan() {
		n++
		line := sc.Text()
		bad := func(msg string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(msg, args...))
		}
		switch {
		case n == 1:
			if line != "# roadtune positions v1" {
				return b, nil, bad("not a roadtune positions file (first line %q)", line)
			}
		case strings.HasPrefix(line, "# seed "):
			if b.Seed, err = strconv.ParseUint(strings.TrimPrefix(line, "# seed "), 10, 64); err != nil {
				return b, nil, bad("seed: %v", err)
			}
		case strings.HasPrefix(line, "# matches "):
			b.Key = strings.TrimPrefix(line, "# matches ")
		case strings.HasPrefix(line, "# outcomes"):
			for _, f := range strings.Fields(strings.TrimPrefix(line, "# outcomes")) {
				var o optimize.Outcome
				if _, err := fmt.Sscanf(f, "%d/%d/%d", &o.Wins, &o.Draws, &o.Losses); err != nil {
					return b, nil, bad("outcome %q: %v", f, err)
				}
				b.Outcomes = append(b.Outcomes, o)
			}
		case !header:
			if got := len(strings.Split(line, ",")); got != 3+genes {
				return b, nil, bad("header has %d columns, want %d", got, 3+genes)
			}
			header = true
		default:
			fields := strings.Split(line, ",")
			if len(fields) != 3+genes {
				return b, nil, bad("%d columns, want %d", len(fields), 3+genes)
			}
			g, err := strconv.Atoi(fields[0])
			if err != nil {
				return b, nil, bad("game: %v", err)
			}
			v := make([]float64, 2+genes)
			for i, f := range fields[1:] {
				if v[i], err = strconv.ParseFloat(f, 64); err != nil {
					return b, nil, bad("column %d: %v", i+2, err)
				}
			}
			pos = append(pos, optimize.Position{Game: g, Tempo: v[0], Y: v[1], X: v[2:]})
		}
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return b, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !header {
		return b, nil, fmt.Errorf("%s: no CSV header", path)
	}
	return b, pos, nil
}
