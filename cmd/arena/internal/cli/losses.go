package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/losses"
)

// lossesOptions are the flags of `arena losses`.
type lossesOptions struct {
	opt     losses.Options
	weights string
	log     string // the games log
	out     string
	force   bool
	json    bool
}

const lossesUsage = `usage: arena losses -player NAME [flags] DIR|GAMES.jsonl

The post-mortem of a match: for each game NAME lost (DIR is a match
directory, whose games.jsonl is read, or the games log itself), the first
of its moves after which the winner had a forced win by continuous double
threats (proved by the engine's threat search), whether a pair of stones
held at that point, and so the cause: lost before its first move, a quiet
attack before the losing move, a defence missed, no win proved, or a
forfeit. Prints the tables (Markdown) or, with -json, the report; -o also
writes it to FILE.

`

func parseLossesFlags(args []string, stderr io.Writer) (*lossesOptions, error) {
	o := &lossesOptions{opt: losses.DefaultOptions()}
	fset := flag.NewFlagSet("arena losses", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprint(stderr, lossesUsage)
		cmdline.PrintDefaults(fset)
	}
	fset.StringVar(&o.opt.Player, "player", "", "the `NAME` of the player whose lost games are analysed, as the log spells it")
	fset.StringVar(&o.weights, "weights", "roadtune-tempo", "baseline `NAME` or weight file ordering the threat searches' moves (the proofs hold whatever it is)")
	fset.IntVar(&o.opt.ProveDepth, "prove-depth", o.opt.ProveDepth, "attacker moves of the search proving the winner's win after each of the loser's moves, 1..16")
	fset.Int64Var(&o.opt.ProveNodes, "prove-nodes", o.opt.ProveNodes, "positions of that search")
	fset.IntVar(&o.opt.HoldDepth, "hold-depth", o.opt.HoldDepth, "attacker moves of the search after each candidate pair before the losing move, 1..16")
	fset.Int64Var(&o.opt.HoldNodes, "hold-nodes", o.opt.HoldNodes, "positions of that search")
	fset.IntVar(&o.opt.Radius, "radius", o.opt.Radius, "candidate stones: the empty points within `R` points of a stone")
	fset.IntVar(&o.opt.Concurrency, "concurrency", runtime.GOMAXPROCS(0), "games analysed at once")
	fset.StringVar(&o.out, "o", "", "also write the report to `FILE` (atomically; an existing file only with -force)")
	fset.BoolVar(&o.force, "force", false, "let -o replace an existing file")
	fset.BoolVar(&o.json, "json", false, "print (and write) the report as JSON")
	if err := cmdline.Parse(fset, args); err != nil {
		return nil, usageError{err}
	}
	flagErr := func(flag, format string, a ...any) error { return usageError{cmdline.Flagf(flag, format, a...)} }
	switch {
	case fset.NArg() != 1:
		return nil, usagef("losses: want one match directory or games log, not %d arguments", fset.NArg())
	case o.opt.Player == "":
		return nil, flagErr("player", "is required: the name of the player whose losses are analysed")
	case o.opt.ProveDepth < 1 || o.opt.ProveDepth > 16:
		return nil, flagErr("prove-depth", "must be 1..16, not %d", o.opt.ProveDepth)
	case o.opt.HoldDepth < 1 || o.opt.HoldDepth > 16:
		return nil, flagErr("hold-depth", "must be 1..16, not %d", o.opt.HoldDepth)
	case o.opt.ProveNodes < 1:
		return nil, flagErr("prove-nodes", "must be at least 1, not %d", o.opt.ProveNodes)
	case o.opt.HoldNodes < 1:
		return nil, flagErr("hold-nodes", "must be at least 1, not %d", o.opt.HoldNodes)
	case o.opt.Radius < 1 || o.opt.Radius > engine.Size/2:
		return nil, flagErr("radius", "must be 1..%d, not %d", engine.Size/2, o.opt.Radius)
	case o.opt.Concurrency < 1:
		return nil, flagErr("concurrency", "must be at least 1, not %d", o.opt.Concurrency)
	case o.force && o.out == "":
		return nil, flagErr("force", "needs -o")
	}
	o.log = fset.Arg(0)
	if st, err := os.Stat(o.log); err == nil && st.IsDir() {
		o.log = filepath.Join(o.log, "games.jsonl")
	}
	if err := checkOutFile(o.out, o.force); err != nil {
		return nil, err
	}
	return o, nil
}

func lossesMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseLossesFlags(args, stderr)
	if err == nil {
		err = runLosses(ctx, o, stdout, stderr)
	}
	return exitCode(stderr, "arena losses:", err)
}

func runLosses(ctx context.Context, o *lossesOptions, stdout, stderr io.Writer) error {
	wf, err := configs.LoadWeights(o.weights)
	if err != nil {
		return usagef("-weights: %v", err)
	}
	o.opt.Weights = wf.Weights()
	games, err := tournament.ReadGameLog(o.log)
	if err != nil {
		return err
	}
	prog := progress.New(stderr, progress.IsTerminal(stdout), false)
	prog.Steps = 10
	began := false
	rep, err := losses.Analyze(ctx, games, o.opt, func(done, total int) {
		if !began {
			prog.Begin("lost games", total)
			began = true
		}
		prog.Update(done, total)
	})
	if began {
		prog.End()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errInterrupted
		}
		if _, ok := errors.AsType[*losses.PlayerError](err); ok {
			return usageError{fmt.Errorf("%s: %w", o.log, err)}
		}
		return err
	}
	var data []byte
	if o.json {
		var buf bytes.Buffer
		if err := writeJSON(&buf, rep); err != nil {
			return err
		}
		data = buf.Bytes()
	} else {
		data = []byte(rep.Markdown())
	}
	if _, err := stdout.Write(data); err != nil {
		return err
	}
	if o.out != "" {
		return results.WriteFileAtomic(o.out, data)
	}
	return nil
}
