package tournament

// Conversations with an external engine outside of games, to check a
// command before a run: ProbeOptions (what options it has) and CheckSetup
// (whether it takes the lines a run will send).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine/protocol"
)

const (
	wroteLines = 3   // lines of unexpected output quoted in an error
	wroteBytes = 300 // bytes of them at most
)

// prober is an engine started for a probe: every output line reaches it.
type prober struct {
	p     *ExternalPlayer
	cmd   string   // the command, for errors
	wrote []string // unexpected output lines (bounded: wroteLines)
	extra int      // unexpected output lines not kept
}

// startProbe starts the external engine e with options o and reads its
// reply to "name" within e.Handshake (going on without one, as NewGame
// does); its init strings are not sent. The caller ends it (close).
func startProbe(ctx context.Context, e Engine, o ExternalOptions) (*prober, error) {
	p, err := NewExternal(e, o)
	if err != nil {
		return nil, err
	}
	p.parse = everyLine
	if err := p.spawn(); err != nil {
		return nil, err
	}
	pb := &prober{p: p, cmd: p.commandLine()}
	if err := p.handshake(ctx, false); err != nil {
		pb.close()
		return nil, pb.fail(err)
	}
	return pb, nil
}

// everyLine passes every output line on: the driver's events, and free
// text as lineText with the line.
func everyLine(text string) (outEvent, bool) {
	if ev, ok := outputEvent(text); ok {
		return ev, true
	}
	return outEvent{kind: lineText, text: text}, true
}

// close ends the engine ("quit", then its process group is killed).
func (pb *prober) close() { pb.p.Close() }

// fail names the command in err; a forfeit (the engine died, wrote a line
// too long, did not read its input) is told by its detail: how it ended
// and its standard error tail.
func (pb *prober) fail(err error) error {
	var f *Forfeit
	if errors.As(err, &f) {
		return fmt.Errorf("external engine %q: %s", pb.cmd, f.Detail)
	}
	return fmt.Errorf("external engine %q: %w", pb.cmd, err)
}

// failf is fail of a new error.
func (pb *prober) failf(format string, a ...any) error {
	return pb.fail(fmt.Errorf(format, a...))
}

// send writes lines to the engine (each with its newline); a failure is
// the engine's death or its unread input (fail).
func (pb *prober) send(what string, lines ...string) error {
	if err := pb.p.sendLines(lines, what); err != nil {
		return pb.fail(err)
	}
	return nil
}

// await reads the engine's lines, with their protocol reading, until each
// says done, returns an error, or d passes (timedOut). Unexpected lines
// are each's to keep (note). The engine's death, a line over MaxLineBytes
// and ctx ending are errors.
func (pb *prober) await(ctx context.Context, d time.Duration, after string, each func(text string, r protocol.Reply) (bool, error)) (timedOut bool, err error) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	pr := pb.p.proc
	for {
		ev, res := pr.next(ctx, timer.C)
		switch res {
		case gotClosed, gotExited:
			return false, pb.fail(pb.p.died(after, res == gotClosed))
		case gotTimeout:
			return true, nil
		case gotCancel:
			pb.p.stop(false)
			return false, ctx.Err()
		}
		if ev.kind == lineTooLong {
			return false, pb.fail(pb.p.forfeit(ForfeitMalformed, tooLong(ev)))
		}
		text := ev.text
		if ev.kind == lineName {
			text = "name " + ev.text
		}
		done, err := each(text, protocol.ParseReply(text))
		if err != nil || done {
			return false, err
		}
	}
}

// note keeps an unexpected output line for an error message.
func (pb *prober) note(text string) {
	if len(pb.wrote) < wroteLines {
		pb.wrote = append(pb.wrote, quoteLine(text))
	} else {
		pb.extra++
	}
}

// wroteText says what the engine wrote that was not expected: "nothing",
// or the first lines quoted (wroteBytes at most) and how many more.
func (pb *prober) wroteText() string {
	if len(pb.wrote) == 0 {
		return "nothing"
	}
	s := strings.Join(pb.wrote, ", ")
	if len(s) > wroteBytes {
		s = cutHead(s, wroteBytes) + "…"
	}
	if pb.extra > 0 {
		s += fmt.Sprintf(" and %d more lines", pb.extra)
	}
	return s
}

// sentLine is a line a probe sends and what it is ("init string 2").
type sentLine struct{ text, label string }

// labelled labels lines "what 1", "what 2", … .
func labelled(what string, lines []string) []sentLine {
	out := make([]sentLine, len(lines))
	for i, l := range lines {
		out[i] = sentLine{l, fmt.Sprintf("%s %d", what, i+1)}
	}
	return out
}

// checkLines sends each line with "name" after it and waits for the reply
// to "name" within the handshake time: an "error ..." line before it
// means the engine refused the line (the error quotes both). An engine
// that did not answer "name" at the handshake gets all lines at once and
// the handshake time to answer an error, which then cannot be tied to one
// line.
func (pb *prober) checkLines(ctx context.Context, sent []sentLine) error {
	if len(sent) == 0 {
		return nil
	}
	handshake := pb.p.eng.Handshake
	lines := make([]string, len(sent))
	for i, l := range sent {
		lines[i] = l.text
	}
	refused := func(i int) func(string, protocol.Reply) (bool, error) {
		return func(text string, r protocol.Reply) (bool, error) {
			switch {
			case r.Kind == protocol.ErrorReply && i < 0:
				return false, pb.failf("refused one of the lines %q: it answered %s", lines, quoteLine(text))
			case r.Kind == protocol.ErrorReply:
				return false, pb.failf("refused %s %q: it answered %s", sent[i].label, sent[i].text, quoteLine(text))
			case r.Kind == protocol.NameReply:
				return true, nil
			}
			pb.note(text)
			return false, nil
		}
	}
	if pb.p.name == "" {
		if err := pb.send("the lines", lines...); err != nil {
			return err
		}
		_, err := pb.await(ctx, handshake, "after the lines", refused(-1))
		return err
	}
	for i, l := range sent {
		if err := pb.send(l.label, l.text, protocol.Command{Kind: protocol.Name}.String()); err != nil {
			return err
		}
		timedOut, err := pb.await(ctx, handshake, fmt.Sprintf("after %s %q", l.label, l.text), refused(i))
		if err != nil {
			return err
		}
		if timedOut {
			return pb.failf("no reply to \"name\" within %v after %s %q (it wrote %s)", handshake, l.label, l.text, pb.wroteText())
		}
	}
	return nil
}

// ProbeOptions asks the external engine e, started with options o, for its
// options: it starts the program, reads its reply to "name", sends the
// init strings (as CheckSetup does, each to be taken without an error,
// when the engine answered "name"; else just before "options"), then
// "options", and reads the reply — one line per option, "option name
// N type spin|float default D min A max B" (protocol.Option), ended by
// "optionsok" — within e.Handshake (DefaultHandshake when ≤ 0). The
// options come in the engine's order; the engine is always ended.
//
// The error names the command and says what went wrong: no "optionsok"
// in time (quoting the first lines the engine wrote instead, or saying it
// wrote nothing: an engine that does not know "options" is silent or
// answers an error), an "error ..." answer (quoted), the engine's exit
// (its status and standard error tail), an option line that is not of
// the shape above or gives the same name twice, a minimum over its
// maximum, a default outside them or a spin option with a fractional
// number (the line quoted), a refused init string, or ctx ending.
func ProbeOptions(ctx context.Context, e Engine, o ExternalOptions) ([]protocol.Option, error) {
	pb, err := startProbe(ctx, e, o)
	if err != nil {
		return nil, err
	}
	defer pb.close()
	options := protocol.Command{Kind: protocol.Options}.String()
	asked := quote(options)
	if pb.p.name != "" {
		if err := pb.checkLines(ctx, labelled("init string", pb.p.eng.InitStrings)); err != nil {
			return nil, err
		}
	} else if len(pb.p.eng.InitStrings) > 0 {
		// No barrier: the init strings go unchecked, just before "options".
		if err := pb.send("the init strings", pb.p.eng.InitStrings...); err != nil {
			return nil, err
		}
		asked += " (or an init string before it)"
	}
	if err := pb.send(quote(options), options); err != nil {
		return nil, err
	}
	var opts []protocol.Option
	seen := map[string]bool{}
	timedOut, err := pb.await(ctx, pb.p.eng.Handshake, `after "options"`, func(text string, r protocol.Reply) (bool, error) {
		switch r.Kind {
		case protocol.OptionsOK:
			return true, nil
		case protocol.ErrorReply:
			return false, pb.failf("answered %s with %s", asked, quoteLine(text))
		case protocol.OptionLine:
			if why := optionFault(r.Option, seen); why != "" {
				return false, pb.failf("option line %s: %s", quoteLine(text), why)
			}
			seen[strings.ToLower(r.Option.Name)] = true
			opts = append(opts, r.Option)
			return false, nil
		}
		if f := strings.Fields(text); len(f) > 0 && strings.EqualFold(f[0], "option") {
			return false, pb.failf("option line %s: want \"option name N type spin|float default D min A max B\"", quoteLine(text))
		}
		pb.note(text)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if timedOut {
		return nil, pb.failf("no \"optionsok\" within %v of %q (it may not know the command); it wrote %s", pb.p.eng.Handshake, options, pb.wroteText())
	}
	return opts, nil
}

// optionFault says what is wrong with an option of the reply to
// "options" (seen: the names before it, in lower case), or "".
func optionFault(o protocol.Option, seen map[string]bool) string {
	switch {
	case seen[strings.ToLower(o.Name)]:
		return "the option " + o.Name + " is listed twice"
	case o.Min > o.Max:
		return "min over max"
	case o.Default < o.Min || o.Default > o.Max:
		return "default outside min..max"
	case !o.Float && (o.Default != float64(int64(o.Default)) || o.Min != float64(int64(o.Min)) || o.Max != float64(int64(o.Max))):
		return "a spin option with a fractional number"
	}
	return ""
}

// CheckSetup checks that the external engine e, started with options o,
// takes its init strings and then lines (a run's setup lines, such as
// "setoption name Width value 100" for the extreme values of a tuning
// run) without an error: it starts the program, reads its reply to
// "name", and sends each init string and then each line followed by
// "name" as a barrier. An "error ..." line before the reply to that
// "name" means the engine refused the line: the error names the command
// and quotes the line sent and the engine's error line. An engine that
// did not answer "name" at start gets all the lines at once and
// e.Handshake to answer an error (which then cannot be tied to a line).
// The engine's exit (status and standard error tail), no reply to a
// barrier within e.Handshake (DefaultHandshake when ≤ 0) and ctx ending
// are errors too. The engine is always ended. Values sent by setup lines
// stay in the process, so the lines are checked in order as a run sends
// them at a game.
func CheckSetup(ctx context.Context, e Engine, o ExternalOptions, lines []string) error {
	pb, err := startProbe(ctx, e, o)
	if err != nil {
		return err
	}
	defer pb.close()
	return pb.checkLines(ctx, append(labelled("init string", pb.p.eng.InitStrings), labelled("setup line", lines)...))
}

// quote is s in double quotes.
func quote(s string) string { return `"` + s + `"` }
