package main

import (
	"context"
	"io"
	"testing"

	"github.com/roadtune/roadtune/internal/cmdline/cmdlinetest"
)

// TestMistakes: tune words the mistakes every command shares as arena
// and engine do (cmdlinetest's table), exit status 2.
func TestMistakes(t *testing.T) {
	cmdlinetest.Run(t, "tune", func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	})
}
