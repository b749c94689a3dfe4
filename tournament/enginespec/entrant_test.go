package enginespec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func resolve(t *testing.T, words ...string) Player {
	t.Helper()
	s, err := Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInProcess: the entrant plays the weight file's vector at the
// player's settings; its name is name=, else the file's, else the path's
// base name; the description gives depth, width, knobs and clock, and a
// refused setting is an error naming its option.
func TestInProcess(t *testing.T) {
	genes := make([]float64, engine.Symmetric.NumGenes())
	for i := range genes {
		genes[i] = float64(10 * (i + 1))
	}
	wf := &engine.WeightFile{Name: "file-name", Schema: engine.Symmetric, Values: genes}
	ent, info, err := resolve(t, "weights=dir/w.json", "st=2", "killers=1").InProcess(wf, 3, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	if ent.Name != "file-name" || info.Name != ent.Name || ent.Settings.Depth != 3 || ent.Settings.Width != 7 || !ent.Settings.Killers ||
		ent.Time.PerMove != 2*time.Second || ent.Weights.Genes[0] != 10 || ent.IsExternal() {
		t.Errorf("entrant %+v", ent)
	}
	if info.Kind != "weights" || info.Source != "dir/w.json" || !strings.HasPrefix(info.Settings, "depth 3, width 7, killers") || !strings.HasSuffix(info.Settings, ent.Time.String()) {
		t.Errorf("description %+v", info)
	}
	if ent, _, _ := resolve(t, "weights=w.json", "name=mine").InProcess(wf, 3, 7, true); ent.Name != "mine" {
		t.Errorf("name= gives %q", ent.Name)
	}
	wf.Name = ""
	if ent, _, _ := resolve(t, "weights=dir/w.json").InProcess(wf, 3, 7, true); ent.Name != "w" {
		t.Errorf("an unnamed file gives %q, want w", ent.Name)
	}
	if _, _, err := resolve(t, "weights=w.json").InProcess(wf, 99, 7, true); err == nil || !strings.HasPrefix(err.Error(), "depth=: ") {
		t.Errorf("depth 99: %v, want an error naming depth=", err)
	}
}

// TestExternal: a named external engine is not started: its entrant runs
// the program with its arguments, directory and init lines, its
// description says so; a program that does not exist is refused first.
func TestExternal(t *testing.T) {
	prog, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := filepath.Dir(prog)
	p := resolve(t, "name=ext", "cmd="+prog, "arg=-x", "dir="+dir, "initstr=depth 2")
	ent, info, err := p.External(context.Background(), 3*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ent.Name != "ext" || ent.Program == "" || len(ent.Args) != 1 || ent.Args[0] != "-x" || ent.MoveTime != 3*time.Second || ent.Dir != dir {
		t.Errorf("entrant %+v", ent)
	}
	if want := "dir " + dir + `, init "depth 2", 3s per move at most`; info.Kind != "external" || info.Settings != want {
		t.Errorf("description %+v, want settings %q", info, want)
	}
	if _, _, err := resolve(t, "name=x", "cmd=/no/such/engine").External(context.Background(), time.Second, nil); err == nil {
		t.Error("a missing program accepted")
	}
}
