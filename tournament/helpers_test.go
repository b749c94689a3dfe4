package tournament

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
)

// firstLegal is a trivial in-process player: it plays the first empty
// points in row-major order (a cursor makes a whole game O(361)).
type firstLegal struct{ cursor engine.Point }

func (p *firstLegal) NewGame(context.Context, Opening, engine.Color) error {
	p.cursor = 0
	return nil
}

func (p *firstLegal) Play(_ context.Context, b *engine.Board, _ engine.Move) (Reply, error) {
	var pts [2]engine.Point
	n := 0
	for p.cursor < engine.NumPoints && n < b.StonesLeft() {
		if b.At(p.cursor) == engine.Empty {
			pts[n] = p.cursor
			n++
		}
		p.cursor++
	}
	if n == 1 {
		return Reply{Move: engine.Single(pts[0]), Nodes: 1}, nil
	}
	return Reply{Move: engine.Pair(pts[0], pts[1]), Nodes: 2}, nil
}

func (p *firstLegal) Close() error { return nil }

// scripted returns a fixed error or move from Play.
type scripted struct {
	err  error
	move engine.Move
}

func (p *scripted) NewGame(context.Context, Opening, engine.Color) error { return nil }
func (p *scripted) Play(context.Context, *engine.Board, engine.Move) (Reply, error) {
	return Reply{Move: p.move}, p.err
}
func (p *scripted) Close() error { return nil }

func newFirstLegal() (Player, error) { return &firstLegal{}, nil }

// TestMain removes the fake engine (fakeArgs) when the tests end.
func TestMain(m *testing.M) { os.Exit(fakeenginetest.Main(m)) }

// baseline loads a baseline weight file from configs/weights.
func baseline(t testing.TB, name string) engine.Weights {
	t.Helper()
	f, err := engine.LoadWeightFile(filepath.Join("..", "configs", "weights", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return f.Weights()
}

func mustOpening(t testing.TB, s string) Opening {
	t.Helper()
	o, err := ParseOpening(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func fastSettings() engine.Settings {
	s := engine.DefaultSettings()
	s.Depth, s.Width = 1, 6
	s.TableBits = 12
	return s
}
