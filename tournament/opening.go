package tournament

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
)

// Opening is a short fixed sequence of moves from the empty board played
// before the players take over (connect6.md "Openings and fair pairs").
// Moves[0] is Black's single stone, Moves[1] White's two stones, and so on,
// colours alternating by move. An empty Opening starts from the empty board.
type Opening struct {
	Moves []engine.Move
}

// String returns the opening in protocol notation, moves separated by one
// space, e.g. "JJ KJJK"; the empty opening is "".
func (o Opening) String() string {
	var sb strings.Builder
	for i, m := range o.Moves {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(m.String())
	}
	return sb.String()
}

// MoveColor returns the colour that plays move i of a game (Black for even
// i, White for odd i).
func MoveColor(i int) engine.Color {
	if i%2 == 0 {
		return engine.Black
	}
	return engine.White
}

// unprefixed is an engine error without the engine's package prefix: in
// "FILE:LINE: opening move 2: move \"ZZKK\": …" the line says enough.
type unprefixed struct{ error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.error.Error(), "engine: ") }
func (u unprefixed) Unwrap() error { return u.error }

// ParseOpening reads an opening in protocol notation: moves separated by
// white space, e.g. "JJ KJJK". The moves must be legal from the empty board
// (Black's first move one stone, then two stones per move, empty distinct
// on-board points) and must not end the game. The error names the bad move.
func ParseOpening(s string) (Opening, error) { return parseOpening(s, true) }

// parseOpening is ParseOpening; without quote, a word that is no move is
// not quoted in the error: a line of a file given as an opening file by
// mistake (a token file, say) must not be printed.
func parseOpening(s string, quote bool) (Opening, error) {
	fields := strings.Fields(s)
	o := Opening{Moves: make([]engine.Move, 0, len(fields))}
	b := engine.NewBoard()
	for i, f := range fields {
		m, err := engine.ParseMove(f)
		if err != nil && !quote {
			return Opening{}, fmt.Errorf("opening move %d: not a move (2 or 4 letters A-S: one point or two, e.g. JJ or KJJK)", i+1)
		}
		if err != nil {
			return Opening{}, fmt.Errorf("opening move %d: %w", i+1, unprefixed{err})
		}
		if err := b.Play(m); err != nil {
			return Opening{}, fmt.Errorf("opening move %d (%s): %w", i+1, MoveColor(i), unprefixed{err})
		}
		if b.Over() {
			return Opening{}, fmt.Errorf("opening move %d %q ends the game", i+1, f)
		}
		o.Moves = append(o.Moves, m)
	}
	return o, nil
}

// ReadOpenings reads an opening suite: one opening per line in protocol
// notation (see ParseOpening), or the word "empty" for a game from the
// empty board, '#' starting a comment to the end of the line, blank lines
// ignored. name is used in errors, which read
// "name:line: ..." (*fileio.Error values: bad input) and never quote a
// word that is no move. A suite without any opening is an error.
func ReadOpenings(name string, r io.Reader) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if strings.TrimSpace(text) == "empty" {
			out = append(out, Opening{})
			continue
		}
		o, err := parseOpening(text, false)
		if err != nil {
			return nil, &fileio.Error{Path: name, Line: line, Err: err}
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, &fileio.Error{Path: name, Line: line + 1, Err: err}
	}
	if len(out) == 0 {
		return nil, &fileio.Error{Path: name, Err: errors.New("no openings")}
	}
	return out, nil
}

// LoadOpenings reads an opening file (format of ReadOpenings): a regular
// file of at most 16 MiB (fileio.Openings). Errors are *fileio.Error
// values naming the file and line.
func LoadOpenings(path string) ([]Opening, error) {
	f, _, err := fileio.Open(path, fileio.Openings)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpenings(path, f)
}

// symmetry maps (col, row) by one of the 8 symmetries of the square board
// about its centre JJ (k = 0 is the identity).
func symmetry(k, col, row int) (int, int) {
	const m = engine.Size - 1
	if k&4 != 0 {
		col, row = row, col
	}
	if k&1 != 0 {
		col = m - col
	}
	if k&2 != 0 {
		row = m - row
	}
	return col, row
}

// GenerateOpenings returns the 3-stone opening suite of Qi 2018 §4.6 as
// described in connect6.md: Black JJ, White's two stones on distinct points
// within Chebyshev distance radius (1..9) of JJ, one opening per class of
// the 8 board symmetries (which all fix JJ), in an order shuffled by seed.
// The same radius and seed give the same suite. Radius 2 gives 44
// openings, radius 3 gives 162. Each opening is in its canonical form: of
// the 8 images, the one whose stone pair (lower point index first) is
// smallest by point index.
func GenerateOpenings(radius int, seed uint64) ([]Opening, error) {
	if radius < 1 || radius > engine.Size/2 {
		return nil, fmt.Errorf("opening radius %d: want 1..%d", radius, engine.Size/2)
	}
	centre := engine.Size / 2
	var pts [][2]int
	for row := centre - radius; row <= centre+radius; row++ {
		for col := centre - radius; col <= centre+radius; col++ {
			if col != centre || row != centre {
				pts = append(pts, [2]int{col, row})
			}
		}
	}
	type pair struct{ a, b engine.Point }
	canon := func(p, q [2]int) pair {
		best := pair{engine.NoPoint, engine.NoPoint}
		for k := range 8 {
			a := engine.PointAt(symmetry(k, p[0], p[1]))
			b := engine.PointAt(symmetry(k, q[0], q[1]))
			if b < a {
				a, b = b, a
			}
			if best.a == engine.NoPoint || a < best.a || (a == best.a && b < best.b) {
				best = pair{a, b}
			}
		}
		return best
	}
	var suite []pair
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			c := canon(pts[i], pts[j])
			if !slices.Contains(suite, c) {
				suite = append(suite, c)
			}
		}
	}
	slices.SortFunc(suite, func(x, y pair) int {
		if x.a != y.a {
			return int(x.a) - int(y.a)
		}
		return int(x.b) - int(y.b)
	})
	rng := rand.New(rand.NewPCG(seed, openingStream))
	rng.Shuffle(len(suite), func(i, j int) { suite[i], suite[j] = suite[j], suite[i] })
	centrePt := engine.PointAt(centre, centre)
	out := make([]Opening, len(suite))
	for i, p := range suite {
		out[i] = Opening{Moves: []engine.Move{engine.Single(centrePt), engine.Pair(p.a, p.b)}}
	}
	return out, nil
}

// ShuffleOpenings permutes s in place by a PCG seeded with seed, on the
// stream GenerateOpenings shuffles its suite with: the same seed and the same
// s always give the same order, whatever the platform. Use it to draw the
// openings of a batch from a suite read from a file.
func ShuffleOpenings(s []Opening, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, openingStream))
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}

// openingStream is the PCG stream of opening shuffles ("openings" in ASCII).
const openingStream = 0x6f70656e696e6773

// SuiteFor returns the generated 3-stone suite (GenerateOpenings, shuffled
// by seed) of the smallest radius, at least 3, that holds pairs distinct
// openings, so that no opening of a match is played twice: deterministic
// engines replay the same game from the same opening, and a repeated game
// pair adds no information while narrowing the reported interval. It
// returns the suite and its radius; an error when even radius 9 is short.
func SuiteFor(pairs int, seed uint64) ([]Opening, int, error) {
	for radius := 3; radius <= engine.Size/2; radius++ {
		suite, err := GenerateOpenings(radius, seed)
		if err != nil {
			return nil, 0, err
		}
		if len(suite) >= pairs {
			return suite, radius, nil
		}
	}
	return nil, 0, fmt.Errorf("%d game pairs: more than the generated openings of any radius", pairs)
}
