package cli

import (
	"context"
	"io"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
)

// TestMistakes: arena words the mistakes every command shares as tune
// and engine do (cmdlinetest's table), exit status 2, and leaves nothing
// behind for a missing engine program.
func TestMistakes(t *testing.T) {
	cmdlinetest.Run(t, "arena", func(args []string, stdout, stderr io.Writer) int {
		return Main(context.Background(), args, stdout, stderr)
	})
}

// TestHelpFits: arena -h and arena openings -h fit a terminal of
// cmdline.HelpWidth columns.
func TestHelpFits(t *testing.T) {
	cmdlinetest.Help(t, "arena", [][]string{{"-h"}, {"openings", "-h"}}, func(args []string, stdout, stderr io.Writer) int {
		return Main(context.Background(), args, stdout, stderr)
	})
}
