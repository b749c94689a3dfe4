package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/report"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The page is checked with golang.org/x/net/html, the HTML5 parsing
// algorithm the browsers follow (the standard library has no HTML parser,
// and encoding/xml rejects valid HTML such as <meta charset="utf-8">).
// Because an HTML5 parser accepts any input, the page is also tokenized
// and every element must be closed, in order: no tag soup.

// TestReportHTML: a finished run has report.html beside report.md, a
// well-formed HTML page with a title and charset, one inline <svg> in a
// figure per chart of plots/, no <img>, no script, no URL but the SVG
// namespaces, the verdict line and the ladder table, and relative links to
// the run's files; WriteReportHTML rebuilds it byte for byte.
func TestReportHTML(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	runfixture.Finished(t, dir, "ga")
	page, err := os.ReadFile(filepath.Join(dir, report.FileHTML))
	if err != nil {
		t.Fatal(err)
	}
	htmlBalanced(t, page)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}

	if title := htmlFind(doc, atom.Title); len(title) != 1 || htmlText(title[0]) != "roadtune run run" {
		t.Errorf("title: %d elements", len(title))
	}
	if !slices.ContainsFunc(htmlFind(doc, atom.Meta), func(n *html.Node) bool { return htmlAttr(n, "charset") == "utf-8" }) {
		t.Error(`no <meta charset="utf-8">`)
	}
	for _, a := range []atom.Atom{atom.Img, atom.Script, atom.Link, atom.Iframe, atom.Object} {
		if n := htmlFind(doc, a); len(n) > 0 {
			t.Errorf("the page has <%s>", a)
		}
	}

	// One inline SVG per chart file, each in its figure with a caption.
	files, _ := filepath.Glob(filepath.Join(dir, report.DirPlots, "*.svg"))
	if len(files) < 2 {
		t.Fatalf("plots/*.svg: %v", files)
	}
	svgs := htmlFind(doc, atom.Svg)
	if len(svgs) != len(files) {
		t.Errorf("%d inline <svg>, %d plots/*.svg", len(svgs), len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".svg")
		fig := htmlByID(doc, "chart-"+name)
		if fig == nil || fig.DataAtom != atom.Figure || htmlAttr(fig, "class") != "chart" {
			t.Errorf("no <figure class=chart id=chart-%s>", name)
			continue
		}
		if len(htmlFind(fig, atom.Svg)) != 1 || len(htmlFind(fig, atom.Figcaption)) != 1 || htmlText(htmlFind(fig, atom.Figcaption)[0]) == "" {
			t.Errorf("figure %s: want one <svg> and a caption", name)
		}
	}
	if bytes.Contains(page, []byte("<?xml")) || bytes.Contains(page, []byte("<!-- Generated")) {
		t.Error("an SVG prologue was left in the page")
	}

	// No URL but the SVG namespaces, and nothing loaded by CSS.
	rest := string(page)
	for _, ns := range []string{`xmlns="http://www.w3.org/2000/svg"`, `xmlns:xlink="http://www.w3.org/1999/xlink"`} {
		rest = strings.ReplaceAll(rest, ns, "")
	}
	for _, s := range []string{"http://", "https://", "<img", "@import", "url(", "//cdn", "src="} {
		if strings.Contains(rest, s) {
			t.Errorf("the page contains %q", s)
		}
	}

	// The verdict line and the ladder table.
	var rungs []ladder.Rung
	data, _ := os.ReadFile(filepath.Join(dir, ladder.File))
	if err := json.Unmarshal(data, &rungs); err != nil || len(rungs) == 0 {
		t.Fatalf("ladder.json: %v", err)
	}
	verdict := ladder.VerdictLine(rungs)
	if !slices.ContainsFunc(htmlFind(doc, atom.Strong), func(n *html.Node) bool { return htmlText(n) == verdict }) {
		t.Errorf("no <strong> verdict %q", verdict)
	}
	table := htmlTable(doc, "opponent")
	if table == nil {
		t.Fatal("no ladder table")
	}
	head := htmlCells(htmlFind(table, atom.Tr)[0])
	if !slices.Contains(head, "Elo ± 95%") || !slices.Contains(head, "verdict") {
		t.Errorf("table table header %q", head)
	}
	rows := htmlFind(table, atom.Tr)[1:]
	if len(rows) != len(rungs) {
		t.Fatalf("table table: %d rows, %d rungs", len(rows), len(rungs))
	}
	for i, r := range rungs {
		row := htmlCells(rows[i])
		if row[0] != r.Match().B || row[len(row)-1] != r.Verdict {
			t.Errorf("table row %d: %q, rung %s %s", i, row, r.Match().B, r.Verdict)
		}
		// The page wraps cells to fit the column: an Elo and its interval
		// stay whole, the score may break only before its interval.
		elo, score := row[slices.Index(head, "Elo ± 95%")], row[slices.Index(head, "score")]
		if strings.Count(elo, " ") != 0 || strings.Count(score, " ") != 1 {
			t.Errorf("table row %d: Elo %q, score %q: breakable inside a figure", i, elo, score)
		}
	}
	if strings.Contains(string(page), "nowrap") {
		t.Error("report.html keeps table cells from wrapping: the table table outgrows the column")
	}

	// Links are relative and name files of the run.
	hrefs := map[string]bool{}
	for _, a := range htmlFind(doc, atom.A) {
		h := htmlAttr(a, "href")
		hrefs[h] = true
		if !filepath.IsLocal(h) {
			t.Errorf("link %q is not relative to the run", h)
		} else if _, err := os.Stat(filepath.Join(dir, h)); err != nil {
			t.Errorf("link %q: %v", h, err)
		}
	}
	for _, f := range []string{tune.FileConfig, tune.FileBest, ladder.File} {
		if !hrefs[f] {
			t.Errorf("no link to %s", f)
		}
	}

	// Rebuilt from report.md and plots/: the same page.
	if err := os.Remove(filepath.Join(dir, report.FileHTML)); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, report.FileHTML))
	if !bytes.Equal(again, page) {
		t.Error("WriteReportHTML built another page than the run")
	}
}

// TestWriteReportHTMLNoReport: a directory without report.md is an error
// that names report.md, and writes nothing.
func TestWriteReportHTMLNoReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	err := report.WriteHTML(dir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(dir, report.File)) {
		t.Fatalf("want a not-exist error naming %s, got %v", report.File, err)
	}
	if _, err := os.Stat(filepath.Join(dir, report.FileHTML)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("report.html written: %v", err)
	}
}

// TestReportHTMLCharts: an SVG's prologue, comments and DOCTYPE are
// dropped; a plot without its SVG becomes a link to its PNG; an image that
// is no plot becomes a link; a chart SVG that is not SVG is an error
// naming it; raw HTML in the Markdown is not copied through.
func TestReportHTMLCharts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, report.DirPlots), 0o755); err != nil {
		t.Fatal(err)
	}
	svg := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<!-- made by hand <svg> -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>
<!-- trailer -->
`
	if err := os.WriteFile(filepath.Join(dir, report.DirPlots, "a.svg"), []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	md := "# Run x\n\n### A chart\n\n![A chart](plots/a.png)\n\n![Old chart](plots/old.png)\n\n![logo](other/logo.png)\n\n<script>alert(1)</script>\n"
	page, err := writeHTML(dir, md)
	if err != nil {
		t.Fatal(err)
	}
	htmlBalanced(t, page)
	s := string(page)
	for _, want := range []string{
		"<title>Run x</title>",
		"<figure class=\"chart\" id=\"chart-a\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"5\"/></svg>\n<figcaption>A chart</figcaption>\n</figure>",
		`<a href="plots/old.png">plots/old.png</a>`,
		`<a href="other/logo.png">logo</a>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"<?xml", "DOCTYPE svg", "trailer", "<h3>A chart</h3>", "<script", "<img"} {
		if strings.Contains(s, bad) {
			t.Errorf("page has %q", bad)
		}
	}

	if err := os.WriteFile(filepath.Join(dir, report.DirPlots, "a.svg"), []byte("<html></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writeHTML(dir, md); err == nil || !strings.Contains(err.Error(), "a.svg") {
		t.Errorf("a chart that is not SVG: %v", err)
	}
}

// writeHTML writes md as dir's report.md and returns the page WriteHTML
// builds of it.
func writeHTML(dir, md string) ([]byte, error) {
	if err := os.WriteFile(filepath.Join(dir, report.File), []byte(md), 0o644); err != nil {
		return nil, err
	}
	if err := report.WriteHTML(dir); err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(dir, report.FileHTML))
}

// htmlBalanced tokenizes page and fails unless every element is closed
// by its own end tag, in order (void and self-closing elements aside).
func htmlBalanced(t *testing.T, page []byte) {
	t.Helper()
	void := map[string]bool{"meta": true, "br": true, "hr": true, "img": true, "input": true, "link": true, "wbr": true, "col": true, "area": true, "base": true, "source": true}
	var open []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatal(z.Err())
			}
			if len(open) > 0 {
				t.Fatalf("unclosed elements %q", open)
			}
			return
		case html.StartTagToken:
			if name, _ := z.TagName(); !void[string(name)] {
				open = append(open, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(open) == 0 || open[len(open)-1] != string(name) {
				t.Fatalf("</%s> closes %q", name, open)
			}
			open = open[:len(open)-1]
		}
	}
}

// htmlFind returns the elements a under n, in document order.
func htmlFind(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			out = append(out, d)
		}
	}
	return out
}

func htmlByID(n *html.Node, id string) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && htmlAttr(d, "id") == id {
			return d
		}
	}
	return nil
}

func htmlAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// htmlText is the text under n.
func htmlText(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// htmlCells is the text of each cell of the table row tr.
func htmlCells(tr *html.Node) []string {
	var out []string
	for c := range tr.ChildNodes() {
		if c.DataAtom == atom.Td || c.DataAtom == atom.Th {
			out = append(out, htmlText(c))
		}
	}
	return out
}

// htmlTable is the first table whose first header cell is first.
func htmlTable(doc *html.Node, first string) *html.Node {
	for _, tbl := range htmlFind(doc, atom.Table) {
		if th := htmlFind(tbl, atom.Th); len(th) > 0 && htmlText(th[0]) == first {
			return tbl
		}
	}
	return nil
}
