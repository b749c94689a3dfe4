package main

import (
	"context"
	"io"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
)

// TestMistakes: tune words the mistakes every command shares as arena
// and engine do (cmdlinetest's table), exit status 2.
func TestMistakes(t *testing.T) {
	cmdlinetest.Run(t, "tune", func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	})
}

// TestHelpFits: tune -h and its subcommands' -h fit a terminal of
// cmdline.HelpWidth columns, with no config key's internal name.
func TestHelpFits(t *testing.T) {
	helps := [][]string{{"-h"}, {"export", "-h"}, {"compare", "-h"}, {"serve", "-h"}, {"worker", "-h"}}
	cmdlinetest.Help(t, "tune", helps, func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	})
}
