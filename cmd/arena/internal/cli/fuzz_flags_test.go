package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
)

// FuzzParseFlags reads arbitrary arena command lines (one word a line)
// with arena's flag parser (parseFlags): no panic; -h prints the usage,
// nothing else prints; every error exits with the usage status; options
// that parse have at least one pair, one game at once, two players, a
// move time > 0, limits ≥ 0 and a known schedule (head-to-head for two
// players).
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"a.json\nb.json", "-pairs\n3\n-depth\n2\nzhou2015\nchen2010-pso15", "-games\n3\na\nb", "-rounds\n2\n-pairs\n2\na\nb",
		"-tournament\nknockout\na\nb\nc", "-tournament\nhead-to-head\na\nb\nc", "-openings\nfile=x\norder=random\nstart=2\na\nb",
		"-openings\norder=up\na\nb", "-movetime\n-1s\na\nb", "-h", "-http\n:0\na\nb", "-engine\nweights=zhou2015\n-engine\nweights=x",
		"-concurrency\n0\na\nb", "-sprt\n0,5\na\nb", "-dpeth\n2", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\n")
		var stderr bytes.Buffer
		o, err := parseFlags(args, &stderr)
		switch {
		case errors.Is(err, flag.ErrHelp):
			if stderr.Len() == 0 {
				t.Fatalf("%q: -h without the usage", args)
			}
			return
		case stderr.Len() > 0:
			t.Fatalf("%q: printed %q (error %v)", args, stderr.String(), err)
		case err != nil:
			if code := exitCode(io.Discard, "arena:", err); code != exitUsage {
				t.Fatalf("%q: error %v exits %d", args, err, code)
			}
			return
		}
		players := len(o.files) + len(o.engines)
		if o.pairs < 1 || o.concurrency < 1 || o.moveTime <= 0 || o.maxMoves < 0 || o.ratingInterval < 0 || o.randomOpenings < 0 || players < 2 {
			t.Fatalf("%q parses to %+v", args, o)
		}
		if !slices.Contains([]string{"round-robin", "gauntlet", "knockout", "head-to-head"}, o.schedule) || o.schedule == "head-to-head" && players != 2 {
			t.Fatalf("%q: schedule %q for %d players", args, o.schedule, players)
		}
	})
}

// FuzzReadCommand reads arbitrary data as a match's command.json, as
// arena -resume does (readCommand): no panic; an error is a *fileio.Error
// naming the file; a command read has its arguments, with -openings
// generated added once to a match saved before the balanced suite; and
// saved again it reads as the same command line.
func FuzzReadCommand(f *testing.F) {
	for _, s := range []string{`{"args":["-pairs","2","a.json","b.json"],"version":1}`, `{"args":["a","b"]}`, `{"args":["-openings","x","a","b"]}`,
		`{"args":[]}`, `{}`, `{"args":null}`, `{"args":"a"}`, `[]`, `{"args":["a"],"version":-1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, commandFile)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args, err := readCommand(dir)
		if err != nil {
			var fe *fileio.Error
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if args == nil || !slices.ContainsFunc(args, isOpeningsFlag) && !strings.Contains(string(data), `"version"`) {
			t.Fatalf("%s reads as %q", data, args)
		}
		again, err := json.Marshal(savedCommand{Args: args, Version: commandVersion})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, again, 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := readCommand(dir)
		if err != nil || !slices.Equal(back, args) {
			t.Fatalf("%s reads as %q; saved again, %q, %v", data, args, back, err)
		}
	})
}
