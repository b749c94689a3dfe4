package protocol

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/roadtune/roadtune/engine"
)

// Kind names a protocol command.
type Kind int

// The commands of the Cloudict/ConnectMore protocol (connect6.md, "Engine text
// protocol") and roadtune's additions (Weights, Width, the Time* kinds, Stop).
const (
	Blank     Kind = iota // an empty or all-blank line: ignored, no reply
	Name                  // `name`
	New                   // `new black` / `new white` / `new <other word>` / `new`
	Place                 // `black XXXX` / `white XXXX`: stones put down without search
	Play                  // `move XXXX`: the opponent's move; the engine answers
	Next                  // `next`: the engine moves for the side to move
	Depth                 // `depth d`
	Width                 // `width n` (roadtune)
	VCF                   // `vcf`: threat search on
	UnVCF                 // `unvcf`: threat search off
	Print                 // `print`
	Help                  // `help`
	Quit                  // `quit` or `exit`
	Weights               // `weights FILE` (roadtune)
	TimeMove              // `time move SECONDS`: a fixed time per move (roadtune)
	TimeGame              // `time game SECONDS [INC_SECONDS [MOVES]]`: a game clock the engine keeps (roadtune)
	TimeLeft              // `time left SECONDS`: the game clock's remaining time, from the GUI (roadtune)
	TimeOff               // `time off`: no clock, search to depth (roadtune)
	Stop                  // `stop`: end the search in progress and answer its best move so far (UCI's stop; roadtune)
	Options               // `options`: list the settable options, one `option` line each, then `optionsok` (UCI's shape; roadtune)
	SetOption             // `setoption name NAME value V`: set one option (UCI's shape; roadtune)
)

var kindWords = [...]string{
	Blank: "", Name: "name", New: "new", Place: "place", Play: "move", Next: "next",
	Depth: "depth", Width: "width", VCF: "vcf", UnVCF: "unvcf", Print: "print",
	Help: "help", Quit: "quit", Weights: "weights",
	TimeMove: "time move", TimeGame: "time game", TimeLeft: "time left", TimeOff: "time off",
	Stop: "stop", Options: "options", SetOption: "setoption",
}

// String is the command word of k, or its two words for the Time kinds
// ("move" for Play, "place" for Place, "time move" for TimeMove, "" for
// Blank).
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindWords) {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindWords[k]
}

// Limits the parser puts on numeric arguments (the engine's own limits) and
// on lines.
const (
	MaxDepth   = engine.MaxDepth // largest accepted `depth`, in moves (stone pairs)
	MaxWidth   = engine.MaxWidth // largest accepted `width`, in moves kept per node
	MaxLineLen = 4096            // longest line Serve reads, in bytes; longer lines get an error reply
	MaxSeconds = 1000000         // largest time a `time` command takes, in seconds (about 11.6 days)
	MaxMoves   = 1000            // largest MOVES of `time game`, in moves per period
)

// Command is one parsed protocol line.
//
//   - New:   Side is Black (`new black`), White (`new white`) or Empty (any
//     other word, or none: side not fixed, as ConnectMore sends `new xxx`).
//   - Place: Side is the colour (Black or White) and Move its stones.
//   - Play:  Move is the opponent's move.
//   - Depth, Width: N is the number (1..MaxDepth, 1..MaxWidth).
//   - Weights: Path is the rest of the line, spaces inside kept.
//   - TimeMove: Clock.Move is the time per move (> 0).
//   - TimeGame: Clock.Remaining is the clock at the start of the game and
//     of each period (> 0), Clock.Inc the increment (≥ 0), Clock.MovesToGo
//     the moves per period (0: the clock is for the whole game).
//   - TimeLeft: Clock.Remaining is the time left (≥ 0).
//   - SetOption: Option is the option's name as sent, Value its value
//     (a finite number; whether the name exists and the value is in its
//     range is decided when it is set). String writes an integral value
//     as an integer ("1000000", never "1e+06": an engine's integer
//     option parses it), any other in Go's shortest form ("0.25").
//
// Times are at most MaxSeconds, with nanosecond resolution. The other
// kinds carry nothing.
type Command struct {
	Kind  Kind
	Side  engine.Color
	Move  engine.Move
	N     int
	Path  string
	Clock engine.Clock

	Option string
	Value  float64
}

// String is the canonical protocol line of c (no newline): ParseCommand of it
// gives c back. A New command without a fixed side is written `new xxx`.
func (c Command) String() string {
	switch c.Kind {
	case New:
		switch c.Side {
		case engine.Black:
			return "new black"
		case engine.White:
			return "new white"
		}
		return "new xxx"
	case Place:
		return c.Side.String() + " " + c.Move.String()
	case Play:
		return "move " + c.Move.String()
	case Depth, Width:
		return c.Kind.String() + " " + strconv.Itoa(c.N)
	case Weights:
		return "weights " + c.Path
	case SetOption:
		return "setoption name " + c.Option + " value " + formatValue(c.Value)
	case TimeMove:
		return "time move " + FormatSeconds(c.Clock.Move)
	case TimeLeft:
		return "time left " + FormatSeconds(c.Clock.Remaining)
	case TimeGame:
		s := "time game " + FormatSeconds(c.Clock.Remaining)
		if c.Clock.Inc > 0 || c.Clock.MovesToGo > 0 {
			s += " " + FormatSeconds(c.Clock.Inc)
		}
		if c.Clock.MovesToGo > 0 {
			s += " " + strconv.Itoa(c.Clock.MovesToGo)
		}
		return s
	}
	return c.Kind.String()
}

// ErrSyntax is wrapped by every error ParseCommand returns.
var ErrSyntax = errors.New("bad command")

// ParseCommand parses one protocol line. It tolerates a trailing CR (CRLF
// input), leading, trailing and repeated blanks, upper- or lower-case command
// words and coordinates, and a move whose stones are split by blanks
// (`move KL LK`). A blank line is Command{Kind: Blank}. Moves are parsed
// with engine.ParseMove, so `JJJJ` is Black's single first stone.
//
// Errors wrap ErrSyntax and quote the offending text (cut to 40 bytes); the
// parser checks form only: whether a move is legal on the board is decided
// when it is played.
func ParseCommand(line string) (Command, error) {
	if !utf8.ValidString(line) {
		return Command{}, fmt.Errorf("%w: line is not valid UTF-8", ErrSyntax)
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return Command{Kind: Blank}, nil
	}
	word := strings.ToLower(fields[0])
	args := fields[1:]
	noArgs := func(k Kind) (Command, error) {
		if len(args) != 0 {
			return Command{}, fmt.Errorf("%w: %s takes no argument, got %s", ErrSyntax, word, quote(strings.Join(args, " ")))
		}
		return Command{Kind: k}, nil
	}
	switch word {
	case "name":
		return noArgs(Name)
	case "next":
		return noArgs(Next)
	case "vcf":
		return noArgs(VCF)
	case "unvcf":
		return noArgs(UnVCF)
	case "print":
		return noArgs(Print)
	case "help":
		return noArgs(Help)
	case "quit", "exit":
		return noArgs(Quit)
	case "stop":
		return noArgs(Stop)
	case "options":
		return noArgs(Options)
	case "setoption":
		return parseSetOption(args)
	case "new":
		switch {
		case len(args) > 1:
			return Command{}, fmt.Errorf("%w: new takes one word, got %s", ErrSyntax, quote(strings.Join(args, " ")))
		case len(args) == 0:
			return Command{Kind: New, Side: engine.Empty}, nil
		}
		switch strings.ToLower(args[0]) {
		case "black":
			return Command{Kind: New, Side: engine.Black}, nil
		case "white":
			return Command{Kind: New, Side: engine.White}, nil
		}
		return Command{Kind: New, Side: engine.Empty}, nil
	case "black", "white", "move":
		if len(args) == 0 {
			return Command{}, fmt.Errorf("%w: %s needs the stones, e.g. %s KLLK", ErrSyntax, word, word)
		}
		text := strings.ToUpper(strings.Join(args, ""))
		m, err := parseMove(text)
		if err != nil {
			return Command{}, fmt.Errorf("%w: %s %s: %v", ErrSyntax, word, quote(text), err)
		}
		switch word {
		case "black":
			return Command{Kind: Place, Side: engine.Black, Move: m}, nil
		case "white":
			return Command{Kind: Place, Side: engine.White, Move: m}, nil
		}
		return Command{Kind: Play, Move: m}, nil
	case "depth", "width":
		k, limit := Depth, MaxDepth
		if word == "width" {
			k, limit = Width, MaxWidth
		}
		if len(args) != 1 {
			return Command{}, fmt.Errorf("%w: %s takes one number 1..%d", ErrSyntax, word, limit)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > limit {
			return Command{}, fmt.Errorf("%w: %s %s: want a whole number 1..%d", ErrSyntax, word, quote(args[0]), limit)
		}
		return Command{Kind: k, N: n}, nil
	case "time":
		return parseTime(args)
	case "weights":
		// The path is the rest of the line after the word, so it may hold blanks.
		notSpace := func(r rune) bool { return !unicode.IsSpace(r) }
		rest := strings.TrimSpace(strings.TrimLeftFunc(strings.TrimSpace(line), notSpace))
		if rest == "" {
			return Command{}, fmt.Errorf("%w: weights needs a file name", ErrSyntax)
		}
		return Command{Kind: Weights, Path: rest}, nil
	}
	return Command{}, fmt.Errorf("%w: %s is not a command (try help)", ErrSyntax, quote(fields[0]))
}

// setOptionUsage is the error text of a malformed `setoption` command.
const setOptionUsage = "setoption takes name NAME value NUMBER, e.g. setoption name Width value 12 (options lists the names)"

// parseSetOption parses the arguments of `setoption name NAME value V`.
func parseSetOption(args []string) (Command, error) {
	if len(args) != 4 || !strings.EqualFold(args[0], "name") || !strings.EqualFold(args[2], "value") {
		return Command{}, fmt.Errorf("%w: %s", ErrSyntax, setOptionUsage)
	}
	v, err := strconv.ParseFloat(args[3], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Command{}, fmt.Errorf("%w: setoption name %s value %s: want a finite number", ErrSyntax, quote(args[1]), quote(args[3]))
	}
	return Command{Kind: SetOption, Option: args[1], Value: v}, nil
}

// timeUsage is the error text of a malformed `time` command.
const timeUsage = "time takes move SECONDS, game SECONDS [INC_SECONDS [MOVES]], left SECONDS or off"

// parseTime parses the arguments of `time` (see Command).
func parseTime(args []string) (Command, error) {
	if len(args) == 0 {
		return Command{}, fmt.Errorf("%w: %s", ErrSyntax, timeUsage)
	}
	sub := strings.ToLower(args[0])
	args = args[1:]
	seconds := func(i int, what string, zero bool) (time.Duration, error) {
		d, ok := ParseSeconds(args[i])
		if !ok || d > MaxSeconds*time.Second || (d == 0 && !zero) {
			lo := "0 <"
			if zero {
				lo = "0 ≤"
			}
			return 0, fmt.Errorf("%w: time %s: %s %s: want seconds, %s s ≤ %d (e.g. 0.5)", ErrSyntax, sub, what, quote(args[i]), lo, MaxSeconds)
		}
		return d, nil
	}
	var c Command
	var err error
	switch {
	case sub == "move" && len(args) == 1:
		c.Kind = TimeMove
		c.Clock.Move, err = seconds(0, "SECONDS", false)
	case sub == "left" && len(args) == 1:
		c.Kind = TimeLeft
		c.Clock.Remaining, err = seconds(0, "SECONDS", true)
	case sub == "off" && len(args) == 0:
		c.Kind = TimeOff
	case sub == "game" && len(args) >= 1 && len(args) <= 3:
		c.Kind = TimeGame
		if c.Clock.Remaining, err = seconds(0, "SECONDS", false); err == nil && len(args) >= 2 {
			c.Clock.Inc, err = seconds(1, "INC_SECONDS", true)
		}
		if err == nil && len(args) == 3 {
			n, aerr := strconv.Atoi(args[2])
			if aerr != nil || n < 1 || n > MaxMoves {
				err = fmt.Errorf("%w: time game: MOVES %s: want a whole number 1..%d", ErrSyntax, quote(args[2]), MaxMoves)
			}
			c.Clock.MovesToGo = n
		}
	default:
		return Command{}, fmt.Errorf("%w: %s, got %s", ErrSyntax, timeUsage, quote(strings.Join(append([]string{sub}, args...), " ")))
	}
	if err != nil {
		return Command{}, err
	}
	return c, nil
}

// ParseSeconds reads a time in decimal seconds: digits with an optional
// point and fraction ("2", "0.25", ".5", "60."), at most 8 whole digits,
// exact to the nanosecond (further digits are dropped, not rounded). ok is
// false for anything else (a sign, an exponent, a space). It is the one
// reader of seconds: the protocol's `time` commands take at most
// MaxSeconds of it, and package tournament reads cutechess-cli's st= and
// tc= times with it.
func ParseSeconds(s string) (d time.Duration, ok bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if (whole == "" && frac == "") || len(whole) > 8 || !allDigits(whole) || !allDigits(frac) {
		return 0, false
	}
	w, _ := strconv.Atoi("0" + whole)
	frac = (frac + "000000000")[:9]
	ns, _ := strconv.Atoi(frac)
	return time.Duration(w)*time.Second + time.Duration(ns), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatSeconds writes d in decimal seconds without trailing zeros, as
// ParseSeconds reads it back (d ≥ 0): "0.5", "60", "0.000001"; a negative
// d is written with a minus sign.
func FormatSeconds(d time.Duration) string {
	if d < 0 {
		return "-" + FormatSeconds(-d)
	}
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if ns := d % time.Second; ns != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", int64(ns)), "0")
	}
	return s
}

// parseMove checks the letters before handing them to engine.ParseMove, so
// that a bad move is always an error here whatever the engine accepts: two or
// four letters A..S (a doubled pair such as JJJJ is one stone).
func parseMove(text string) (engine.Move, error) {
	if len(text) != 2 && len(text) != 4 {
		return engine.Move{}, fmt.Errorf("want 2 or 4 letters A..S, got %d characters", utf8.RuneCountInString(text))
	}
	for i := 0; i < len(text); i++ {
		if text[i] < 'A' || text[i] >= 'A'+engine.Size {
			return engine.Move{}, fmt.Errorf("letter %s is off the board (A..S)", quote(text[i:i+1]))
		}
	}
	m, err := engine.ParseMove(text)
	if err != nil {
		return engine.Move{}, err
	}
	want := 2
	if len(text) == 2 || text[:2] == text[2:] {
		want = 1
	}
	if m.A == engine.NoPoint || m.Len() != want {
		return engine.Move{}, fmt.Errorf("engine read %s as %d stone(s) %s", text, m.Len(), m)
	}
	return m, nil
}

// quote renders untrusted text for an error line: quoted, control characters
// escaped, cut to 40 bytes, so an error reply is always one clean line.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.QuoteToASCII(s[:cut]) + "..."
	}
	return strconv.QuoteToASCII(s)
}

// formatValue writes a setoption value: an integral value below 2⁵³ in
// magnitude as an integer, any other in the shortest form that reads
// back to it ('g').
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
