// Command arena plays matches between Connect6 weight files (the in-process
// roadtune engine) and external protocol engines, and reports W/D/L, Elo ±
// 95% interval, LOS and optionally an SPRT.
//
//	arena [flags] A.json B.json [C.json ...]
//
// Two players play a head-to-head match, more a round robin. Run
// `arena -h` for the flags. Exit status: 0 done, 1 a failure while playing
// or writing, 2 bad flags, arguments or input files.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/roadtune/roadtune/cmd/arena/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
