package tournament

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine/protocol"
)

func TestProbeOptions(t *testing.T) {
	t.Parallel()
	var log pgidLog
	o := ExternalOptions{QuitGrace: quick.QuitGrace, onStart: log.add}
	e := Engine{Program: fakeBin(t), Args: []string{"-banner", "-noise", "-options", optionSpec}, InitStrings: []string{"param Width 30"}}
	got, err := ProbeOptions(context.Background(), e, o)
	if err != nil {
		t.Fatal(err)
	}
	// The init strings are sent first: Width's default is the value in force.
	want := []protocol.Option{
		{Name: "Width", Default: 30, Min: 1, Max: 100},
		{Name: "DefendShare", Float: true, Default: 0.7, Min: 0.01, Max: 0.9},
	}
	if !slices.Equal(got, want) {
		t.Errorf("options %+v, want %+v", got, want)
	}
	checkGroupsGone(t, log.all())
}

// TestProbeOptionsFailures: an engine that does not know "options" (the
// fake without -options ignores it), one that exits, one that refuses an
// init string: each a quick error naming the program and what happened.
func TestProbeOptionsFailures(t *testing.T) {
	t.Parallel()
	short := 200 * time.Millisecond
	cases := []struct {
		name string
		e    Engine
		want []string
	}{
		{"silent", Engine{Program: fakeBin(t), Args: []string{"-noise"}, Handshake: short}, []string{`no "optionsok" within 200ms of "options"`, "it wrote nothing"}},
		{"exits", Engine{Program: fakeBin(t), Args: []string{"-needfile", "no-such-file"}, Handshake: short}, []string{"exited with status 4", "stderr: fakeengine: cannot open no-such-file"}},
		{"init", Engine{Program: fakeBin(t), Args: []string{"-options", optionSpec}, Handshake: short, InitStrings: []string{"param Width 3", "param Width 300"}},
			[]string{`refused init string 2 "param Width 300": it answered "error param Width 300: 300 out of range 1..100"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var log pgidLog
			o := ExternalOptions{QuitGrace: quick.QuitGrace, onStart: log.add}
			start := time.Now()
			opts, err := ProbeOptions(context.Background(), c.e, o)
			if err == nil {
				t.Fatalf("options %v, no error", opts)
			}
			for _, w := range append(c.want, `external engine "`+c.e.Program) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			checkGroupsGone(t, log.all())
		})
	}
}

// TestProbeOptionsReplies: the engine's answer to "options" read line by
// line (a shell script stands for the engine).
func TestProbeOptionsReplies(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	engine := func(reply string) []string {
		return []string{sh, "-c", `read x; echo name sh; read x; printf '` + reply + `'; read x`}
	}
	o := ExternalOptions{QuitGrace: quick.QuitGrace}
	const handshake = 300 * time.Millisecond
	cases := []struct{ reply, want string }{
		{`error unknown command: options\n`, `answered "options" with "error unknown command: options"`},
		{`option name Width type spin default 15 min 1\noptionsok\n`, `option line "option name Width type spin default 15 min 1": want "option name N type spin|float default D min A max B"`},
		{`option name Hash type check default true\n`, `option line "option name Hash type check default true"`},
		{`option name W type spin default 1 min 0 max 2\noption name w type float default 1 min 0 max 2\n`, `option line "option name w type float default 1 min 0 max 2": the option w is listed twice`},
		{`option name W type spin default 1 min 3 max 2\n`, `min over max`},
		{`option name W type float default 5 min 0 max 2\n`, `default outside min..max`},
		{`option name W type spin default 1.5 min 0 max 2\n`, `a spin option with a fractional number`},
		{`move JJ\ninfo 1\ninfo 2\ninfo 3\n`, `no "optionsok" within 300ms of "options" (it may not know the command); it wrote "move JJ", "info 1", "info 2" and 1 more lines`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			argv := engine(c.reply)
			_, err := ProbeOptions(context.Background(), Engine{Program: argv[0], Args: argv[1:], Handshake: handshake}, o)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), fmt.Sprintf("external engine %q: ", strings.Join(argv, " "))) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	// The engine exits after "options": its status.
	_, err = ProbeOptions(context.Background(), Engine{Program: sh, Args: []string{"-c", `read x; echo name sh; read x; echo bye >&2; exit 7`}, Handshake: handshake}, o)
	if err == nil || !strings.Contains(err.Error(), `after "options"; exited with status 7; stderr: bye`) {
		t.Errorf("exit after options: %v", err)
	}
}

func TestCheckSetup(t *testing.T) {
	t.Parallel()
	e := Engine{Program: fakeBin(t), Args: []string{"-options", optionSpec}, Handshake: time.Second, InitStrings: []string{"param Width 3"}}
	o := ExternalOptions{QuitGrace: quick.QuitGrace}
	ok := []string{"setoption name Width value 100", "setoption name DefendShare value 0.01"}
	if err := CheckSetup(context.Background(), e, o, ok); err != nil {
		t.Errorf("extreme values in range: %v", err)
	}
	bad := []string{"setoption name Width value 1", "setoption name Width value 101", "setoption name DefendShare value 0.9"}
	err := CheckSetup(context.Background(), e, o, bad)
	want := `refused setup line 2 "setoption name Width value 101": it answered "error setoption name Width value 101: 101 out of range 1..100"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	// An engine that does not answer "name": the lines go at once and an
	// error within the handshake time is still caught (the good lines
	// cannot fail by a short wait: 50 ms).
	noname := e
	noname.Args = []string{"-noname", "-options", optionSpec}
	t.Run("noname", func(t *testing.T) {
		t.Parallel()
		e := noname
		e.Handshake = 200 * time.Millisecond
		err := CheckSetup(context.Background(), e, o, bad)
		if err == nil || !strings.Contains(err.Error(), `refused one of the lines`) || !strings.Contains(err.Error(), "101 out of range") {
			t.Errorf("without name: %v", err)
		}
	})
	t.Run("noname-good", func(t *testing.T) {
		t.Parallel()
		e := noname
		e.Handshake = 50 * time.Millisecond
		if err := CheckSetup(context.Background(), e, o, ok); err != nil {
			t.Errorf("without name, good lines: %v", err)
		}
	})
}
