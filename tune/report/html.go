package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/results"
)

// The report's files in a run directory.
const (
	// File is the run's report in Markdown, which the tuning job writes.
	File = "report.md"
	// FileHTML is File as one self-contained HTML page: the same text and
	// tables, each plot inline as SVG, inline CSS, nothing fetched from
	// anywhere.
	FileHTML = "report.html"
	// DirPlots holds the run's charts, each as PNG and SVG
	// (plots/<name>.png, .svg), which File links to.
	DirPlots = "plots"
)

// WriteHTML (re)builds report.html in the run directory dir from its
// report.md and the charts under plots/: report.md converted to HTML
// (CommonMark with GFM tables), every image of a plot (plots/<name>.png)
// replaced by a <figure class="chart" id="chart-<name>"> holding the inline
// SVG of plots/<name>.svg and a <figcaption> with the plot's title, and
// every code span that names a file or directory of the run made a
// relative link to it. The page has no script and no external URL: it reads
// offline. It is written atomically; an existing report.html is replaced.
//
// Errors: report.md missing or unreadable (the error names the file), a
// chart SVG that exists but cannot be read or is not an <svg> document
// (named), and write errors. A plot whose SVG is missing (a run from before
// the charts had SVGs) becomes a link to its PNG instead.
func WriteHTML(dir string) error {
	md, err := fileio.ReadFile(filepath.Join(dir, File), fileio.Report)
	if err != nil {
		return fmt.Errorf("tune: build %s: %w", FileHTML, err)
	}
	page, err := reportHTML(dir, md)
	if err != nil {
		return fmt.Errorf("tune: build %s of %s: %w", FileHTML, dir, err)
	}
	return results.WriteFileAtomic(filepath.Join(dir, FileHTML), page)
}

// reportHTML converts the report Markdown md of the run in dir to a whole
// HTML page.
func reportHTML(dir string, md []byte) ([]byte, error) {
	conv := goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(parser.WithASTTransformers(
			util.Prioritized(runTransformer{dir: dir}, 100))),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(chartRenderer{dir: dir}, 100))),
	)
	doc := conv.Parser().Parse(text.NewReader(md))
	var body bytes.Buffer
	if err := conv.Renderer().Render(&body, md, doc); err != nil {
		return nil, err
	}
	title := "roadtune run " + filepath.Base(dir)
	if h := firstHeading(doc); h != nil {
		title = plainText(h, md)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
		"<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		html.EscapeString(title), reportCSS)
	b.Write(body.Bytes())
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes(), nil
}

// reportCSS is the page's whole stylesheet: a readable column, tables in
// slightly smaller type whose cells wrap (the report keeps a number with
// its interval by non-breaking spaces), so that the ladder table, verdict
// column included, fits the column, and that scroll sideways only on a
// screen too narrow even then; charts as wide as the column.
const reportCSS = `body { margin: 0; background: #fff; color: #1f2328; line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1, h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .25rem; }
h1 { font-size: 1.7rem; }
h2 { font-size: 1.35rem; margin-top: 2.2rem; }
table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse;
  margin: 1rem 0; font-variant-numeric: tabular-nums; font-size: .9rem; }
th, td { border: 1px solid #d0d7de; padding: .3rem .5rem; }
th { font-weight: 600; }
th { background: #f6f8fa; }
tbody tr:nth-child(even) { background: #fafbfc; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em;
  background: #f6f8fa; padding: .1em .3em; border-radius: 4px; overflow-wrap: anywhere; }
a { color: #0969da; }
figure.chart { margin: 1.5rem 0; }
figure.chart svg { display: block; width: 100%; height: auto; }
figcaption { color: #59636e; font-size: .95rem; margin-top: .4rem; }
`

// chartFigure is a block node that stands for a plot of the run: rendered
// as a figure with the inline SVG of plots/<Name>.svg.
type chartFigure struct {
	ast.BaseBlock
	Name, Title string
}

var kindChartFigure = ast.NewNodeKind("ChartFigure")

// Kind implements ast.Node.
func (n *chartFigure) Kind() ast.NodeKind { return kindChartFigure }

// Dump implements ast.Node.
func (n *chartFigure) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name, "Title": n.Title}, nil)
}

// runTransformer rewrites the parsed report for the page: a paragraph
// that is only an image of a plot becomes a chartFigure (and a heading
// just before it with the same title is dropped: the figcaption carries
// it), and a code span naming a file or directory of the run is wrapped in
// a relative link.
type runTransformer struct{ dir string }

// Transform implements parser.ASTTransformer.
func (t runTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var paras []*ast.Paragraph
	var spans []*ast.CodeSpan
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Paragraph:
			paras = append(paras, n)
		case *ast.CodeSpan:
			if _, inLink := n.Parent().(*ast.Link); !inLink {
				spans = append(spans, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, p := range paras {
		img, ok := p.FirstChild().(*ast.Image)
		if !ok || p.ChildCount() != 1 {
			continue
		}
		name, ok := plotName(string(img.Destination))
		if !ok {
			continue
		}
		fig := &chartFigure{Name: name, Title: plainText(img, src)}
		if fig.Title == "" {
			fig.Title = name
		}
		if h, ok := p.PreviousSibling().(*ast.Heading); ok && plainText(h, src) == fig.Title {
			h.Parent().RemoveChild(h.Parent(), h)
		}
		p.Parent().ReplaceChild(p.Parent(), p, fig)
	}
	for _, c := range spans {
		name := plainText(c, src)
		if !filepath.IsLocal(name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(t.dir, filepath.FromSlash(name))); err != nil {
			continue
		}
		link := ast.NewLink()
		link.Destination = []byte(name)
		c.Parent().ReplaceChild(c.Parent(), c, link)
		link.AppendChild(link, c)
	}
}

// plotName returns <name> when dest is plots/<name>.png.
func plotName(dest string) (string, bool) {
	dir, file := path.Split(dest)
	name, ok := strings.CutSuffix(file, ".png")
	return name, ok && dir == DirPlots+"/" && name != "" && filepath.IsLocal(name)
}

// chartRenderer renders chartFigure nodes, and images that are no plot of
// the run as links to them, so that the page loads nothing.
type chartRenderer struct{ dir string }

// RegisterFuncs implements renderer.NodeRenderer.
func (r chartRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindChartFigure, r.renderFigure)
	reg.Register(ast.KindImage, r.renderImage)
}

func (r chartRenderer) renderFigure(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	fig := n.(*chartFigure)
	file := filepath.Join(r.dir, DirPlots, fig.Name+".svg")
	data, err := fileio.ReadFile(file, fileio.Report)
	png := path.Join(DirPlots, fig.Name+".png")
	fmt.Fprintf(w, "<figure class=\"chart\" id=\"chart-%s\">\n", html.EscapeString(fig.Name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(w, "<p>No SVG of this chart: <a href=\"%s\">%s</a></p>\n", html.EscapeString(png), html.EscapeString(png))
	case err != nil:
		return ast.WalkStop, err
	default:
		svg, err := inlineSVG(data)
		if err != nil {
			return ast.WalkStop, fmt.Errorf("%s: %w", file, err)
		}
		_, _ = w.Write(svg)
		_ = w.WriteByte('\n')
	}
	fmt.Fprintf(w, "<figcaption>%s</figcaption>\n</figure>\n", html.EscapeString(fig.Title))
	return ast.WalkSkipChildren, nil
}

func (r chartRenderer) renderImage(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	label := plainText(img, src)
	if label == "" {
		label = string(img.Destination)
	}
	fmt.Fprintf(w, "<a href=\"%s\">%s</a>", util.EscapeHTML(util.URLEscape(img.Destination, true)), html.EscapeString(label))
	return ast.WalkSkipChildren, nil
}

// inlineSVG returns the <svg> element of the SVG document data, without
// what may precede it (XML declaration, comments, DOCTYPE) or follow it,
// so that it can stand inline in HTML5. It is an error when data has no
// svg root element.
func inlineSVG(data []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		start := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			return nil, errors.New("no <svg> element")
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local != "svg" {
				return nil, fmt.Errorf("root element <%s>, not <svg>", tok.Name.Local)
			}
			svg := bytes.TrimSpace(data[start:])
			end := bytes.LastIndex(svg, []byte("</svg>"))
			if end < 0 {
				return nil, errors.New("no </svg>")
			}
			return svg[:end+len("</svg>")], nil
		}
	}
}

// firstHeading returns the document's first level-1 heading, or nil.
func firstHeading(doc ast.Node) *ast.Heading {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 {
			return h
		}
	}
	return nil
}

// plainText is the text of n's inline descendants, without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}
