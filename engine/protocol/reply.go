package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/engine"
)

// ReplyKind names a line an engine writes, as a driver reads it.
type ReplyKind uint8

// The replies of the protocol (see the package documentation), and the two
// kinds a driver meets besides them.
const (
	FreeText    ReplyKind = iota // free text: a banner, help, search information; a driver only logs it
	MoveReply                    // `move XXXX`: the engine's move
	Malformed                    // a line that starts as a move but does not make one (`move`, `move ZZ9`)
	NameReply                    // `name X`: the reply to `name`
	ResultReply                  // `result black|white|draw`: the game is over
	ErrorReply                   // `error TEXT`: the command was not carried out
	OptionLine                   // `option name N type spin|float default D min A max B`: one line of the reply to `options`
	OptionsOK                    // `optionsok`: the end of the reply to `options`
)

// Reply is one parsed engine output line.
//
//   - MoveReply: Move is the move.
//   - Malformed: Text says what is wrong with the move.
//   - NameReply: Text is the name (not cut).
//   - ResultReply: Text is "black", "white" or "draw".
//   - ErrorReply: Text is the message.
//   - OptionLine: Option is the option.
//
// FreeText replies carry the line in Text.
type Reply struct {
	Kind   ReplyKind
	Move   engine.Move
	Text   string
	Option Option
}

// Option is one settable option of an engine, as a line of the reply to
// `options` states it: its name, whether it takes any finite number
// (Float: UCI's shape with `type float`) or a whole one (`type spin`), its
// value in force and its bounds.
type Option struct {
	Name     string
	Float    bool
	Default  float64
	Min, Max float64
}

// String is the option's line: `option name N type spin|float default D
// min A max B`, numbers as briefly as they read back exactly.
func (o Option) String() string {
	kind := "spin"
	if o.Float {
		kind = "float"
	}
	return fmt.Sprintf("option name %s type %s default %s min %s max %s", o.Name, kind, num(o.Default), num(o.Min), num(o.Max))
}

// String is the canonical line of r (no newline), as the server writes it;
// ParseReply of it gives r back. A FreeText reply is its Text.
func (r Reply) String() string {
	switch r.Kind {
	case MoveReply:
		return "move " + r.Move.String()
	case NameReply:
		return "name " + r.Text
	case ResultReply:
		return "result " + r.Text
	case ErrorReply:
		return "error " + r.Text
	case OptionLine:
		return r.Option.String()
	case OptionsOK:
		return "optionsok"
	}
	return r.Text
}

// shortWord is the longest word after "move" still taken for an attempt
// at a move rather than for free text.
const shortWord = 6

// ParseReply classifies an engine's output line as a driver reads the
// output of any engine, roadtune's or another (Cloudict's banners and help
// text included):
//
//   - A move is, surrounding blanks aside, "move" (any case) and one word
//     of two or four letters A–S (any case), or two words of two letters
//     each ("move JJ KK"). A line whose first word is "move" and which has
//     no more words, or one or two more words of at most six bytes that do
//     not make a move ("move ZZ9", "move J10 K10"), is Malformed. Any other
//     line beginning with "move", such as "move XXXX   - tell the engine
//     ..." or "move ordering done", is FreeText.
//   - The reply to `name` begins, without leading blanks, with "name" (any
//     case), a blank and a text that does not start with "-" (so help lines
//     such as "    name   - print the name" are not taken for it).
//   - `result black|white|draw`, `error TEXT` (TEXT not empty),
//     `optionsok` and well-formed `option` lines are as the server writes
//     them, the first word in any case.
//
// Everything else is FreeText.
func ParseReply(line string) Reply {
	if name, ok := parseName(line); ok {
		return Reply{Kind: NameReply, Text: name}
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return Reply{Kind: FreeText, Text: line}
	}
	switch strings.ToLower(f[0]) {
	case "move":
		return parseMoveReply(line, f)
	case "result":
		if len(f) == 2 && (f[1] == "black" || f[1] == "white" || f[1] == "draw") {
			return Reply{Kind: ResultReply, Text: f[1]}
		}
	case "error":
		if len(f) > 1 {
			_, msg, _ := strings.Cut(strings.TrimSpace(line), f[0])
			return Reply{Kind: ErrorReply, Text: strings.TrimSpace(msg)}
		}
	case "optionsok":
		if len(f) == 1 {
			return Reply{Kind: OptionsOK}
		}
	case "option":
		if o, ok := parseOption(f); ok {
			return Reply{Kind: OptionLine, Option: o}
		}
	}
	return Reply{Kind: FreeText, Text: line}
}

// parseMoveReply reads a line whose first word is "move" (ParseReply).
func parseMoveReply(line string, f []string) Reply {
	var s string
	switch {
	case len(f) == 1:
		return Reply{Kind: Malformed, Text: `want "move XXXX"`}
	case len(f) == 2 && len(f[1]) <= shortWord:
		s = f[1]
	case len(f) == 3 && len(f[1]) == 2 && len(f[2]) == 2:
		s = f[1] + f[2]
	case len(f) == 3 && len(f[1]) <= shortWord && len(f[2]) <= shortWord:
		return Reply{Kind: Malformed, Text: `want "move XXXX" or "move XX XX" with letters A-S`}
	default:
		return Reply{Kind: FreeText, Text: line}
	}
	m, err := engine.ParseMove(s)
	if err != nil {
		return Reply{Kind: Malformed, Text: err.Error()}
	}
	return Reply{Kind: MoveReply, Move: m}
}

// parseName reports whether line is a reply to `name` and returns the name.
func parseName(line string) (string, bool) {
	if len(line) < 6 || !strings.EqualFold(line[:4], "name") || (line[4] != ' ' && line[4] != '\t') {
		return "", false
	}
	name := strings.TrimSpace(line[5:])
	if name == "" || name[0] == '-' {
		return "", false
	}
	return name, true
}

// parseOption reads the fields of an `option` line (Option.String).
func parseOption(f []string) (Option, bool) {
	if len(f) != 11 || f[1] != "name" || f[3] != "type" || f[5] != "default" || f[7] != "min" || f[9] != "max" ||
		(f[4] != "spin" && f[4] != "float") {
		return Option{}, false
	}
	o := Option{Name: f[2], Float: f[4] == "float"}
	for i, p := range []*float64{&o.Default, &o.Min, &o.Max} {
		v, err := strconv.ParseFloat(f[6+2*i], 64)
		if err != nil {
			return Option{}, false
		}
		*p = v
	}
	return o, true
}
