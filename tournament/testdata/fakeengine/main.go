// Command fakeengine is a test double for the tournament package: a tiny
// Connect6 protocol engine (Cloudict/ConnectMore commands) that plays the
// first empty points in row-major order, and misbehaves on request.
//
//	fakeengine [-mode good|crash|hang|illegal|garbage|empty|exit|single] [-after N] [-noise]
//
// After N good moves (default 0) the engine misbehaves on its next move:
// crash exits with status 3 after writing to stderr, hang never answers,
// illegal plays an occupied point, garbage answers "move ZZ9", empty
// answers "move" without a move, exit ends with
// status 0, single answers one stone where two are due. -noise writes
// free-text lines before each move (they must be ignored by a driver).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
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
	mode := flag.String("mode", "good", "good|crash|hang|illegal|garbage|empty|exit|single")
	after := flag.Int("after", 0, "good moves before misbehaving")
	noise := flag.Bool("noise", false, "free-text lines before each move")
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	moves := 0
	reply := func() {
		if *noise {
			fmt.Fprintln(out, "info thinking hard")
			fmt.Fprintln(out, "VCF node: 12")
			fmt.Fprintln(out, "moved on") // not "move "
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
				fmt.Fprintln(out, "move JJJJ")
				fmt.Fprintln(out, "move JJ")
			case "garbage":
				fmt.Fprintln(out, "move ZZ9")
			case "empty":
				fmt.Fprintln(out, "move")
			case "exit":
				out.Flush()
				os.Exit(0)
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
		fmt.Fprintf(out, "move %s\n", m)
		out.Flush()
	}
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "name":
			fmt.Fprintln(out, "name fakeengine")
		case "new":
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
			return
		}
		out.Flush()
	}
}
