package configs

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's top, relative to this package.
const repoRoot = ".."

// markdownFiles returns every Markdown file of the repository below
// repoRoot, leaving out what is not the repository's: hidden folders
// (.git) and the top-level runs/ and bin/ a user's runs and builds write
// (both in .gitignore).
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot {
			top := filepath.Dir(path) == repoRoot
			if strings.HasPrefix(d.Name(), ".") || top && (d.Name() == "runs" || d.Name() == "bin") {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("%d Markdown files found below %s: the walk is broken", len(files), repoRoot)
	}
	return files
}

// globDocs returns the pages matching pattern, failing the test when there
// are none (a moved folder would otherwise check nothing).
func globDocs(t *testing.T, pattern string) []string {
	t.Helper()
	pages, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatalf("%s: no pages", pattern)
	}
	return pages
}

// readmeMaxLines is the README's budget: what roadtune is, the two
// commands, one line per common task, layout and development; the rest
// lives in docs/guide.
const readmeMaxLines = 250

// markdownLink matches an inline link or image target: ](target) or
// ](target "title").
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestReadmeIsShort: the README stays a page a newcomer reads to the end.
func TestReadmeIsShort(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > readmeMaxLines {
		t.Errorf("README.md: %d lines, more than %d: move the detail to docs/guide", n, readmeMaxLines)
	}
}

// TestDocLinks: every relative link of every Markdown file of the
// repository (the README, the guide, the experiments and the run reports
// copied under docs/experiments) names a file or folder of the
// repository, and a link to a heading (file.md#anchor or #anchor) names
// a heading that exists, slugged as GitHub slugs it. Links inside fenced
// code blocks are code, not links.
func TestDocLinks(t *testing.T) {
	files := markdownFiles(t)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a, err := headingAnchors(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = a
		return a
	}
	links := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		fenced := false
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(text), "```") {
				fenced = !fenced
				continue
			}
			if fenced {
				continue
			}
			for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				path, anchor, _ := strings.Cut(target, "#")
				resolved := file
				if path != "" {
					resolved = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(resolved); err != nil {
						t.Errorf("%s:%d: link %q: no such file or folder", file, line, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(resolved, ".md") && !anchorsOf(resolved)[anchor] {
					t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", file, line, target, resolved, anchor)
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		f.Close()
	}
	if links == 0 {
		t.Error("no relative links found: the link pattern is broken")
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown file: lower case, letters, digits, '-' and '_' kept, spaces to
// '-', everything else dropped, a repeated anchor suffixed -1, -2, ….
func headingAnchors(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		slug := githubSlug(title)
		if n := seen[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors, nil
}

func githubSlug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// TestGithubSlug pins the slug rules the link check relies on to headings
// of docs/experiments.md whose anchors GitHub shows.
func TestGithubSlug(t *testing.T) {
	for title, want := range map[string]string{
		"1. Chen 2010 GA (Tables 4.8–4.10)":                         "1-chen-2010-ga-tables-48410",
		"10. Refining the main job's vector with SPSA":              "10-refining-the-main-jobs-vector-with-spsa",
		"Play by time and the search knobs (issue 14, second step)": "play-by-time-and-the-search-knobs-issue-14-second-step",
		"`tune` and `arena`":                                        "tune-and-arena",
	} {
		if got := githubSlug(title); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", title, got, want)
		}
	}
}

// measuredFigure matches a measured figure as the docs write it: an Elo
// estimate with its interval ("+158.4 ± 27.5", "−10 ± 70 Elo") or a
// score ("68.3%").
var measuredFigure = regexp.MustCompile(`[+−-]?\d[\d.,]*(?: Elo)? ± \d[\d.]*|\d+(?:\.\d+)?%`)

// TestResultsFiguresFromExperiments: docs/results.md and the experiments'
// index copy their figures from the experiments (docs/experiments.md and
// its pages docs/experiments/NN-*.md), which say how each was measured; a
// figure found nowhere there is a typo or a figure without its experiment.
func TestResultsFiguresFromExperiments(t *testing.T) {
	var log strings.Builder
	for _, file := range append([]string{"../docs/experiments.md"}, globDocs(t, "../docs/experiments/[0-9]*.md")...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		log.Write(data)
	}
	source := strings.ReplaceAll(log.String(), "**", "")
	for _, file := range []string{"../docs/results.md", "../docs/experiments/README.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		figures := measuredFigure.FindAllString(strings.ReplaceAll(string(data), "**", ""), -1)
		if len(figures) < 20 {
			t.Errorf("%s: %d figures found, expected dozens: the figure pattern is broken", file, len(figures))
		}
		for _, f := range figures {
			if !strings.Contains(source, f) {
				t.Errorf("%s: figure %q is in no experiment (docs/experiments.md, docs/experiments/NN-*.md)", file, f)
			}
		}
	}
}

// TestVerifyCommandsPlayThePresetsDepth: the docs' command that verifies a
// tuned vector with arena's SPRT plays at the depth ga.toml and pso.toml
// tune and verify at, not at arena's default.
func TestVerifyCommandsPlayThePresetsDepth(t *testing.T) {
	engineDepth := regexp.MustCompile(`(?m)^\[engine\]\ndepth = (\d+)$`)
	depth := ""
	for _, preset := range []string{"ga.toml", "pso.toml"} {
		data, err := os.ReadFile(preset)
		if err != nil {
			t.Fatal(err)
		}
		m := engineDepth.FindSubmatch(data)
		if m == nil || depth != "" && string(m[1]) != depth {
			t.Fatalf("%s: engine.depth %q, want the presets' one depth", preset, m)
		}
		depth = string(m[1])
	}
	found := 0
	for _, file := range []string{"../README.md", "../docs/guide/arena.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, "cmd/arena -sprt") {
				continue
			}
			found++
			if !strings.Contains(line, " -depth "+depth+" ") {
				t.Errorf("%s:%d: %q plays at arena's default depth, not the presets' -depth %s", file, i+1, line, depth)
			}
		}
	}
	if found == 0 {
		t.Error("no verify command (cmd/arena -sprt) found in the README or the arena guide")
	}
}

// TestPresetCostsAgree: the tuning guide's line for each population
// preset states the games and minutes its config's header states.
func TestPresetCostsAgree(t *testing.T) {
	guide, err := os.ReadFile("../docs/guide/tuning.md")
	if err != nil {
		t.Fatal(err)
	}
	header := regexp.MustCompile(`about ([\d,]+) games[\s\S]*?\(about (\S+)[\s#]+minutes`)
	for _, preset := range []string{"ga", "pso", "cmaes"} {
		data, err := os.ReadFile(preset + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		h := header.FindStringSubmatch(string(data))
		if h == nil {
			t.Fatalf("%s.toml: no \"about N games … (about T minutes\" in its header", preset)
		}
		line := regexp.MustCompile(`configs/` + preset + `\.toml +#.*~([\d,]+) games, (\S+) min`).FindStringSubmatch(string(guide))
		if line == nil {
			t.Fatalf("docs/guide/tuning.md: no \"configs/%s.toml # … ~N games, T min\" line", preset)
		}
		if line[1] != h[1] || line[2] != h[2] {
			t.Errorf("%s: the guide says %s games, %s min; %s.toml says %s games, %s minutes", preset, line[1], line[2], preset, h[1], h[2])
		}
	}
}

// TestGuideMapsTheWinRateChart: the tuning guide says which charts answer
// a user's "win-rate chart": a run's ladder.png and elo.png, arena's
// winrate.png.
func TestGuideMapsTheWinRateChart(t *testing.T) {
	guide, err := os.ReadFile("../docs/guide/tuning.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, para := range strings.Split(string(guide), "\n\n") {
		if strings.Contains(para, "win-rate chart") {
			for _, chart := range []string{"plots/ladder.png", "plots/elo.png", "winrate.png"} {
				if !strings.Contains(para, chart) {
					t.Errorf("the guide's win-rate paragraph does not name %s:\n%s", chart, para)
				}
			}
			return
		}
	}
	t.Error("docs/guide/tuning.md says nothing of the win-rate chart")
}
