package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/roadtune/roadtune/cmd/arena/internal/cli"
	"github.com/roadtune/roadtune/internal/cmdline"
)

func main() {
	defer cmdline.ExitOnPanic("arena", os.Stderr, os.Exit)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
