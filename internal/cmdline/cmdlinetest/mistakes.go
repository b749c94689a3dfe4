package cmdlinetest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
)

// Mistake is one kind of bad input, given to every command that takes it.
type Mistake struct {
	Name string
	// Args are each command's arguments ("tune", "arena", "engine"); a
	// command without an entry takes no such input.
	Args map[string][]string
	// Want is the whole of standard error, "CMD" standing for the
	// command's name; Per[cmd], when set, replaces it for one command
	// (where the command's own words, such as its hint, differ).
	Want string
	Per  map[string]string
	// Absent are paths that must not exist afterwards: nothing is left
	// behind by a refused command.
	Absent []string
}

// Mistakes returns the table, with the files it needs written under dir.
func Mistakes(t testing.TB, dir string) []Mistake {
	t.Helper()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	badWeights := write("short.json", "{\n  \"name\": \"x\",\n  \"schema\": \"symmetric\",\n  \"values\": [1, 2],\n  \"provenance\": {\"tool\": \"hand\"}\n}\n")
	_, weightsErr := configs.LoadWeights(badWeights)
	_, misspeltErr := configs.LoadWeights("zhou2051")
	if misspeltErr == nil || !strings.Contains(misspeltErr.Error(), `did you mean "zhou2015"?`) {
		t.Fatalf("a misspelt baseline: %v", misspeltErr)
	}
	badOpenings := write("openings.txt", "JJ KJJK\nJJ ZZKK\n")
	_, openingsErr := configs.LoadOpenings(badOpenings)
	if weightsErr == nil || openingsErr == nil {
		t.Fatalf("the bad files are accepted: %v, %v", weightsErr, openingsErr)
	}
	badKey := write("typo.toml", "[engine]\ndpeth = 3\n")
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	write("full/notes.txt", "mine\n")
	finished := filepath.Join(dir, "finished")
	if err := os.MkdirAll(finished, 0o755); err != nil {
		t.Fatal(err)
	}
	write("finished/best.json", "{}\n") // sorts before checkpoint.json
	write("finished/checkpoint.json", `{"phase": "done"}`+"\n")
	missing := filepath.Join(dir, "no-such-run")
	prog := filepath.Join(dir, "no-such-engine")
	out := filepath.Join(dir, "match")
	all := func(args ...string) map[string][]string {
		return map[string][]string{
			"tune":   args,
			"arena":  append(append([]string(nil), args...), "zhou2015", "zhou2015"),
			"engine": args,
		}
	}
	return []Mistake{
		{Name: "a depth below the engine's limit", Args: all("-depth", "-3"),
			Want: "CMD: flag -depth: must be at least 1, not -3\n"},
		{Name: "a depth above the engine's limit", Args: all("-depth", fmt.Sprint(engine.MaxDepth+1)),
			Want: fmt.Sprintf("CMD: flag -depth: must be at most %d, not %d\n", engine.MaxDepth, engine.MaxDepth+1)},
		{Name: "a width above the engine's limit", Args: all("-width", fmt.Sprint(engine.MaxWidth+1)),
			Want: fmt.Sprintf("CMD: flag -width: must be at most %d, not %d\n", engine.MaxWidth, engine.MaxWidth+1)},
		{Name: "a width that is not a number", Args: all("-width", "x"),
			Want: "CMD: flag -width: must be an integer, not \"x\"\n"},
		{Name: "a misspelt flag", Args: all("-dpeth", "3"),
			Want: "CMD: flag -dpeth: no such flag (did you mean -depth?); CMD -h lists the flags\n"},
		{Name: "a flag without its value", Args: map[string][]string{
			"tune": {"-depth"}, "arena": {"zhou2015", "zhou2015", "-depth"}, "engine": {"-depth"}},
			Want: "CMD: flag -depth: needs a value\n"},
		{Name: "a bad weight file", Args: map[string][]string{
			"tune": {"-method", "spsa", "-start", badWeights}, "arena": {badWeights, "zhou2015"}, "engine": {"-weights", badWeights}},
			Want: "CMD: flag -start: " + weightsErr.Error() + "\n",
			Per: map[string]string{ // an argument, not a flag, names arena's
				"arena":  "arena: " + weightsErr.Error() + "\n",
				"engine": "engine: flag -weights: " + weightsErr.Error() + "\n",
			}},
		{Name: "a misspelt baseline", Args: map[string][]string{
			"tune": {"-method", "spsa", "-start", "zhou2051"}, "arena": {"zhou2051", "zhou2015"}, "engine": {"-weights", "zhou2051"}},
			Want: "CMD: flag -start: " + misspeltErr.Error() + "\n",
			Per: map[string]string{
				"arena":  "arena: " + misspeltErr.Error() + "\n",
				"engine": "engine: flag -weights: " + misspeltErr.Error() + "\n",
			}},
		{Name: "a bad opening file", Args: map[string][]string{
			"tune": {"-openings", badOpenings}, "arena": {"-openings", badOpenings, "zhou2015", "zhou2015"}},
			Want: "CMD: flag -openings: " + openingsErr.Error() + "\n"},
		{Name: "a misspelt subcommand", Args: map[string][]string{"tune": {"exprot", "runs/x"}, "arena": {"opennings"}},
			Per: map[string]string{
				"tune":  "tune: unexpected argument \"exprot\" (did you mean tune export?)\n",
				"arena": "arena: unexpected argument \"opennings\" (did you mean arena openings?)\n",
			}},
		{Name: "-resume of a missing directory", Args: map[string][]string{"tune": {"-resume", missing}, "arena": {"-resume", missing}},
			Per: map[string]string{
				"tune":  fmt.Sprintf("tune: flag -resume: no directory %q (tune writes its runs under runs/ unless -out says otherwise)\n", missing),
				"arena": fmt.Sprintf("arena: flag -resume: no directory %q (arena -out DIR writes a match directory)\n", missing),
			}},
		{Name: "an -out that holds something else than a run", Args: map[string][]string{
			"tune": {"-out", full}, "arena": {"-out", full, "zhou2015", "zhou2015"}},
			Per: map[string]string{ // and no word of resuming it
				"tune":  fmt.Sprintf("tune: run directory %s is not empty (holds \"notes.txt\") and holds no run: choose another -out, a new or empty directory\n", full),
				"arena": fmt.Sprintf("arena: flag -out: %s is not empty (holds \"notes.txt\") and holds no match: choose a new or empty directory\n", full),
			}},
		{Name: "an -out that holds a finished run", Args: map[string][]string{"tune": {"-out", finished}},
			Want: fmt.Sprintf("tune: run directory %s holds a finished run: nothing to resume; its report.md and best.json are there "+
				"(`tune export %s` writes its weight file); choose another -out for a new run\n", finished, finished)},
		{Name: "a misspelt config key", Args: map[string][]string{"tune": {"-config", badKey}},
			Want: fmt.Sprintf("tune: %s:2: key \"engine.dpeth\": unknown key (did you mean \"engine.depth\"?)\n", badKey)},
		{Name: "an SPRT whose bounds are the wrong way round", Args: map[string][]string{"arena": {"-sprt", "20,0", "zhou2015", "zhou2015"}},
			Want: "arena: flag -sprt: \"20,0\": elo0 (20) must be less than elo1 (0)\n"},
		{Name: "pages of a directory that does not exist", Args: map[string][]string{"tune": {"serve", missing}},
			Want: fmt.Sprintf("tune: serve: no directory %q\n", missing)},
		{Name: "export of a run directory that does not exist", Args: map[string][]string{"tune": {"export", missing}},
			Want: fmt.Sprintf("tune: export: no run directory %q (tune writes its runs under runs/ unless -out says otherwise)\n", missing)},
		{Name: "export of a directory that holds no run", Args: map[string][]string{"tune": {"export", full}},
			Want: fmt.Sprintf("tune: export: %s is not a run directory (it holds no config.toml): give a run's own directory, e.g. runs/<time>-<method>\n", full)},
		{Name: "an engine program that does not exist", Args: map[string][]string{
			"arena": {"-engine", "name=X", "cmd=" + prog, "zhou2015", "-out", out}},
			Want:   fmt.Sprintf("arena: -engine name=X cmd=%s: program %q: no such file\n", prog, prog),
			Absent: []string{out}},
	}
}

// packagePrefix finds an error prefix of roadtune's packages (a word of
// its own), which no message of a command shows after its own name.
var packagePrefix = regexp.MustCompile(`(^|[\s("])(engine|tournament|stats|results|configs|tune|arena|cluster|protocol|optimize|referee|web|tuneweb|fileio|cmdline|suggest|progress): `)

// flagTwice finds a flag named twice ("flag -sprt: … flag -sprt:"), as
// the flag package's words and ours once doubled up.
var flagTwice = regexp.MustCompile(`flag -[a-z-]+: .*flag -`)

// Run gives every mistake that applies to cmd to run (the command's
// in-process entry point: arguments without the program name, standard
// output and error; the exit status back) and checks the exit status 2,
// the whole of standard error, that it names no package after the
// command's own name, and that nothing listed in Absent was written.
func Run(t *testing.T, cmd string, run func(args []string, stdout, stderr io.Writer) int) {
	t.Helper()
	ran := 0
	for _, m := range Mistakes(t, t.TempDir()) {
		args, ok := m.Args[cmd]
		if !ok {
			continue
		}
		ran++
		want := m.Want
		if p, ok := m.Per[cmd]; ok {
			want = p
		}
		want = strings.ReplaceAll(want, "CMD", cmd)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != 2 || stderr.String() != want {
			t.Errorf("%s: %s %q: exit %d, stderr\n%q\nwant exit 2 and\n%q", m.Name, cmd, args, code, stderr.String(), want)
		}
		rest := strings.TrimPrefix(stderr.String(), cmd+": ")
		if p := packagePrefix.FindString(rest); p != "" {
			t.Errorf("%s: %s: a package prefix %q after the command's name: %q", m.Name, cmd, p, stderr.String())
		}
		if flagTwice.MatchString(rest) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%s: %s: want one line naming the flag once at most: %q", m.Name, cmd, stderr.String())
		}
		for _, path := range m.Absent {
			if _, err := os.Stat(path); err == nil {
				t.Errorf("%s: %s left %s behind", m.Name, cmd, path)
			}
		}
	}
	if ran == 0 {
		t.Fatalf("no mistake applies to %s", cmd)
	}
}

// HandWeights writes, under dir, the least weight file every command
// takes: a schema and its values, twelve numbers of the tempo schema,
// with no name and no provenance (engine.ParseWeightFile names it after
// the file: "hand"). It returns the file's path.
func HandWeights(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "hand.json")
	const text = `{"schema": "tempo", "values": [20, 80, 150, 800, 1000, 20, 80, 150, 800, 1000, 10, 100]}` + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Help runs each command line of helps (a command's -h, a subcommand's)
// through run and checks the help a newcomer reads: exit status 0, no line
// wider than cmdline.HelpWidth characters, no tab (it shows as up to eight
// columns), no config key's internal name ("@budget").
func Help(t *testing.T, cmd string, helps [][]string, run func(args []string, stdout, stderr io.Writer) int) {
	t.Helper()
	for _, args := range helps {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Errorf("%s %q: exit %d, want 0", cmd, args, code)
		}
		text := stdout.String() + stderr.String()
		if strings.Count(text, "\n") < 5 {
			t.Errorf("%s %q: no help text:\n%s", cmd, args, text)
		}
		for i, line := range strings.Split(text, "\n") {
			if n := len([]rune(line)); n > cmdline.HelpWidth || strings.ContainsAny(line, "\t") || strings.Contains(line, "@budget") {
				t.Errorf("%s %q: line %d (%d characters, over %d, a tab or @budget): %q", cmd, args, i+1, n, cmdline.HelpWidth, line)
			}
		}
	}
}
