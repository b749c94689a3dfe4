package main

import (
	"github.com/roadtune/roadtune/cmd/arena/internal/cli"
	"github.com/roadtune/roadtune/internal/cmdline"
)

func main() { cmdline.Main("arena", cli.Main) }
