package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
)

func TestMain(m *testing.M) { os.Exit(fakeenginetest.Main(m)) }

const spec = "Width:int:15:1:100,DefendShare:float:0.7:0.01:0.9"

// run runs the built fake engine with args and input; its output, standard
// error and exit status.
func run(t *testing.T, input string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(fakeenginetest.Build(t), args...)
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestValueWays: values arrive by --NAME=V, -valuesfile, "valuesfile F",
// "param N V" and setoption, and the record has each game's values and
// the lines sent before its "new".
func TestValueWays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f1 := write("start.txt", "# start values\nDefendShare 0.2\n\n")
	f2 := write("game.txt", "width 8\n")
	record := filepath.Join(dir, "record.jsonl")
	in := "name\nvaluesfile " + f2 + "\nnew black\nparam Width 9\nsetoption name DefendShare value 0.3\nnew white\nmove JJ\noptions\nquit\n"
	out, errOut, code := run(t, in, "-options", spec, "--Width=7", "-valuesfile="+f1, "-record", record)
	want := "name fakeengine\nmove JJ\nmove AABA\n" +
		"option name Width type spin default 9 min 1 max 100\noption name DefendShare type float default 0.3 min 0.01 max 0.9\noptionsok\n"
	if out != want || code != 0 || errOut != "" {
		t.Errorf("output %q (status %d, stderr %q), want %q", out, code, errOut, want)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	wantRec := []struct {
		values map[string]float64
		sent   []string
	}{
		{map[string]float64{"Width": 8, "DefendShare": 0.2}, []string{"name", "valuesfile " + f2, "new black"}},
		{map[string]float64{"Width": 9, "DefendShare": 0.3}, []string{"param Width 9", "setoption name DefendShare value 0.3", "new white"}},
	}
	if len(lines) != len(wantRec) {
		t.Fatalf("record %q", b)
	}
	for i, l := range lines {
		var e entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(e.Values, wantRec[i].values) || !reflect.DeepEqual(e.Sent, wantRec[i].sent) || e.PID <= 0 || len(e.Argv) != 7 {
			t.Errorf("record line %d: %s", i, l)
		}
	}
}

// TestRefusedValues: a bad value in a line answers an error line and
// changes nothing; at start it exits with status 2.
func TestRefusedValues(t *testing.T) {
	t.Parallel()
	in := "setoption name Width value 0\nsetoption name Width value 1.5\nsetoption name Depth value 1\nparam DefendShare x\nparam Width\nvaluesfile /no/such/file\noptions\n"
	out, _, code := run(t, in, "-options", spec)
	for _, w := range []string{
		"error setoption name Width value 0: 0 out of range 1..100\n",
		"error setoption name Width value 1.5: Width takes a whole number, not 1.5\n",
		"error setoption name Depth value 1: no option \"Depth\"\n",
		"error param DefendShare x: \"x\" is not a number\n",
		"error param Width: want setoption name NAME value V, or param NAME V\n",
		"error valuesfile /no/such/file: open /no/such/file: no such file or directory\n",
		"option name Width type spin default 15 min 1 max 100\n",
	} {
		if !strings.Contains(out, w) || code != 0 {
			t.Errorf("output lacks %q (status %d):\n%s", w, code, out)
		}
	}
	for _, args := range [][]string{
		{"-options", spec, "--Width=101"},
		{"-options", spec, "--Depth=1"},
		{"--Width=1"},
		{"-options", "Width:int:15:20:10"},
	} {
		if _, errOut, code := run(t, "", args...); code != 2 || !strings.HasPrefix(errOut, "fakeengine: ") {
			t.Errorf("%q: status %d, stderr %q", args, code, errOut)
		}
	}
	// Without -options the lines are ignored, as before.
	if out, _, _ := run(t, "options\nsetoption name Width value 0\nparam Width 1\nnew black\n"); out != "move JJ\n" {
		t.Errorf("without -options: %q", out)
	}
}
