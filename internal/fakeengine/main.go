package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

const size = 19

var (
	board  [size * size]int8
	stones int
)

func point(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	c, r := s[0]|0x20, s[1]|0x20
	if c < 'a' || c > 's' || r < 'a' || r > 's' {
		return 0, false
	}
	return int(r-'a')*size + int(c-'a'), true
}

func name(p int) string { return string([]byte{byte('A' + p%size), byte('A' + p/size)}) }

func place(move string, color int8) {
	for i := 0; i+2 <= len(move); i += 2 {
		if p, ok := point(move[i : i+2]); ok && board[p] == 0 {
			board[p] = color
			stones++
		}
		if len(move) == 4 && move[:2] == move[2:] {
			break // JJJJ: Black's single first stone
		}
	}
}

// toMove is the colour to move at the start of a turn: 1 black, 2 white.
func toMove() int8 {
	if stones == 0 || ((stones+1)/2)%2 == 0 {
		return 1
	}
	return 2
}

func main() {
	mode := flag.String("mode", "good", "good|crash|hang|illegal|garbage|empty|exit|single|slow|long|endless|stubborn")
	after := flag.Int("after", 0, "good moves before misbehaving")
	noise := flag.Bool("noise", false, "free-text lines before each move")
	delay := flag.Duration("delay", time.Second, "slow: the time before each move")
	banner := flag.Bool("banner", false, "a help text at start")
	spaced := flag.Bool("spaced", false, `answer "move jj kk"`)
	noname := flag.Bool("noname", false, `do not answer "name"`)
	needFile := flag.String("needfile", "", "a file the engine needs in its working directory")
	needInit := flag.String("needinit", "", "a line the engine needs before it plays well")
	child := flag.Bool("child", false, "start a sleeping child holding the output")
	spec := flag.String("options", "", "declared options NAME:int|float:DEFAULT:MIN:MAX,...")
	valuesFile := flag.String("valuesfile", "", `a file of "NAME VALUE" lines`)
	record := flag.String("record", "", "a file to append a JSON line to at every new")
	args, vals := splitValueArgs(os.Args[1:])
	flag.CommandLine.Parse(args) // exits with status 2 on an error
	var opts options
	if *spec != "" {
		var err error
		if opts, err = parseSpec(*spec); err != nil {
			fatal(err)
		}
		if *valuesFile != "" {
			if err := opts.readFile(*valuesFile); err != nil {
				fatal(fmt.Errorf("-valuesfile: %w", err))
			}
		}
	}
	for _, v := range vals {
		if opts == nil {
			fatal(fmt.Errorf("--%s=%s: no -options declared", v[0], v[1]))
		}
		if err := opts.set(v[0], v[1]); err != nil {
			fatal(fmt.Errorf("--%s=%s: %w", v[0], v[1], err))
		}
	}
	var rec *recorder
	if *record != "" {
		f, err := os.OpenFile(*record, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fatal(err)
		}
		rec = &recorder{f: f}
	}
	if *mode == "sleeper" {
		time.Sleep(time.Hour)
		return
	}
	if *needFile != "" {
		if _, err := os.ReadFile(*needFile); err != nil {
			fmt.Fprintln(os.Stderr, "fakeengine: cannot open", *needFile)
			os.Exit(4)
		}
	}
	if *child {
		c := exec.Command(os.Args[0], "-mode", "sleeper")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fakeengine:", err)
			os.Exit(5)
		}
	}
	if *banner {
		fmt.Print(bannerText)
	}
	initDone := *needInit == ""
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	moves := 0
	reply := func() {
		if *noise {
			fmt.Fprintln(out, "info thinking hard")
			fmt.Fprintln(out, "VCF node: 12")
			fmt.Fprintln(out, "moved on") // not "move "
			fmt.Fprintln(out, "move JJ is the best so far, score 12")
		}
		if !initDone {
			fmt.Fprintln(out, "move ZZ")
			out.Flush()
			return
		}
		if moves >= *after && *mode != "good" {
			switch *mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fakeengine: simulated crash")
				out.Flush()
				os.Exit(3)
			case "hang":
				out.Flush()
				time.Sleep(time.Hour)
			case "illegal":
				for p := range board {
					if board[p] != 0 {
						fmt.Fprintf(out, "move %s%s\n", name(p), name(p))
						out.Flush()
						return
					}
				}
				// An empty board has no occupied point: play JJ (one line
				// only, so no stale reply is left in the pipe) and
				// misbehave on the next move.
			case "garbage":
				fmt.Fprintln(out, "move ZZ9")
			case "empty":
				fmt.Fprintln(out, "move")
			case "exit":
				out.Flush()
				os.Exit(0)
			case "slow":
				time.Sleep(*delay)
			case "long":
				out.Write(bytes.Repeat([]byte("x"), 2<<20))
				out.WriteString("\n")
			case "endless":
				x := bytes.Repeat([]byte("y"), 4096)
				for {
					out.Write(x)
				}
			case "single":
				if stones > 0 {
					for p := range board {
						if board[p] == 0 {
							fmt.Fprintf(out, "move %s\n", name(p))
							out.Flush()
							return
						}
					}
				}
			}
		}
		me := toMove()
		var m string
		if stones == 0 {
			m = "JJ"
		} else {
			for p := range board {
				if board[p] == 0 && len(m) < 4 {
					m += name(p)
				}
			}
		}
		place(m, me)
		moves++
		if *spaced && len(m) == 4 {
			m = strings.ToLower(m[:2] + " " + m[2:])
		}
		fmt.Fprintf(out, "move %s\n", m)
		out.Flush()
	}
	for in.Scan() {
		if in.Text() == *needInit {
			initDone = true
		}
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		if rec != nil {
			rec.sent = append(rec.sent, in.Text())
		}
		if opts != nil {
			if lines, ok := opts.command(strings.TrimSpace(in.Text()), f); ok {
				for _, l := range lines {
					fmt.Fprintln(out, l)
				}
				out.Flush()
				continue
			}
		}
		switch strings.ToLower(f[0]) {
		case "name":
			if !*noname {
				fmt.Fprintln(out, "name fakeengine")
			}
		case "new":
			if rec != nil {
				if err := rec.write(opts); err != nil {
					fatal(err)
				}
			}
			board, stones = [size * size]int8{}, 0
			if len(f) > 1 && f[1] == "black" {
				reply()
			}
		case "black", "white":
			c := int8(1)
			if f[0] == "white" {
				c = 2
			}
			if len(f) > 1 {
				place(strings.ToUpper(f[1]), c)
			}
		case "move":
			if len(f) > 1 {
				place(strings.ToUpper(f[1]), toMove())
			}
			reply()
		case "next":
			reply()
		case "quit", "exit":
			out.Flush()
			if *mode == "stubborn" {
				time.Sleep(time.Hour)
			}
			return
		}
		out.Flush()
	}
	if *mode == "stubborn" {
		time.Sleep(time.Hour)
	}
}

// fatal ends the engine with status 2 and err on standard error.
func fatal(err error) {
	fmt.Fprintln(os.Stderr, "fakeengine:", err)
	os.Exit(2)
}

const bannerText = `On help for GameEngine fakeengine
name - print the name of the engine.
            name        - print the name of the Game Engine.
move XXXX   - tell the engine that the opponent take the move XXXX,
            move XXXX   - tell the engine that the opponent take the move XXXX,
                            and the engine will search the move for next step.
            new black   - start a new game and set the engine to Black player.
`
