package cli

import (
	"context"
	"io"
	"testing"

	"github.com/roadtune/roadtune/internal/cmdline/cmdlinetest"
)

// TestMistakes: arena words the mistakes every command shares as tune
// and engine do (cmdlinetest's table), exit status 2, and leaves nothing
// behind for a missing engine program.
func TestMistakes(t *testing.T) {
	cmdlinetest.Run(t, "arena", func(args []string, stdout, stderr io.Writer) int {
		return Main(context.Background(), args, stdout, stderr)
	})
}
