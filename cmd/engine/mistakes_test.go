package main

import (
	"io"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
)

// TestMistakes: engine words the mistakes every command shares as tune
// and arena do (cmdlinetest's table), exit status 2.
func TestMistakes(t *testing.T) {
	cmdlinetest.Run(t, "engine", func(args []string, stdout, stderr io.Writer) int {
		return run(args, strings.NewReader("quit\n"), stdout, stderr)
	})
}

// TestHelpFits: engine -h fits a terminal of cmdline.HelpWidth columns.
func TestHelpFits(t *testing.T) {
	cmdlinetest.Help(t, "engine", [][]string{{"-h"}}, func(args []string, stdout, stderr io.Writer) int {
		return run(args, strings.NewReader("quit\n"), stdout, stderr)
	})
}
