package protocol

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func BenchmarkParseCommand(b *testing.B) {
	lines := []string{"move KLLK", "black JJJJ", "  MOVE kl lk\r", "next", "depth 3", "weights a b.json"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseCommand(lines[i%len(lines)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSelfPlayNext plays whole games through the protocol with the
// default settings (depth 2, width 10, threat search on): `new xxx` and
// `next` until the reply is a result or 60 moves are made, then reports
// games/s and moves/s. It measures the protocol's overhead on top of
// engine.Search.
func BenchmarkSelfPlayNext(b *testing.B) {
	var out bytes.Buffer
	s, err := NewServer(Config{Weights: testWeights(b)}, &out, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	moves, games := 0, 0
	for b.Loop() {
		s.HandleLine(ctx, "new xxx")
		for range 60 {
			out.Reset()
			s.HandleLine(ctx, "next")
			if !strings.HasPrefix(out.String(), "move ") {
				if !strings.HasPrefix(out.String(), "result ") {
					b.Fatalf("next: %q", out.String())
				}
				break
			}
			moves++
		}
		games++
	}
	if st := s.eng.Settings(); s.board.Stones() == 0 || st.Depth != 2 || st.Width != 10 {
		b.Fatal("no game was played with the default settings")
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}
