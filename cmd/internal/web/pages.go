package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/wdl"
)

//go:embed assets
var assets embed.FS

// staticFS holds the pages' CSS and JavaScript (/static/).
var staticFS = func() fs.FS {
	sub, err := fs.Sub(assets, "assets/static")
	if err != nil {
		panic(err)
	}
	return sub
}()

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"pct": func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"elo": func(x float64) string { return fmt.Sprintf("%+.1f", x) },
	"f1":  func(x float64) string { return fmt.Sprintf("%.1f", x) },
	// ci is a match's ±95% half-width, "none" when every game pair ended
	// alike (its width is zero and measures nothing).
	"ci": func(m tournament.MatchSummary) string {
		if _, alike := m.PairsAlike(); alike {
			return "none (all pairs alike)"
		}
		return fmt.Sprintf("%.1f", m.EloCI)
	},
	"f2":    func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"wdl":   func(c wdl.Short) string { return fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses) },
	"penta": func(p [5]int) string { return fmt.Sprintf("%d-%d-%d-%d-%d", p[0], p[1], p[2], p[3], p[4]) },
	"add":   func(a, b int) int { return a + b },
	"gene":  func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) },
	"pos":   pos,
	"glist": func(run string, games []gameRow) gameList { return gameList{run, games} },
}).ParseFS(assets, "assets/*.html"))

// render writes the page template name with data as text/html.
func render(w http.ResponseWriter, name string, data any) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}

// row is a line of a list of runs: a run's or group's status, indented
// Depth levels under its group; a chain's stage not started yet has only
// its Name.
type row struct {
	Status
	Name  string
	Depth int
}

// rows lists the runs under top (nil: every run), each group followed by
// its runs (a chain's stages in order, those not started yet included,
// then other runs found in its directory).
func (s *Server) rows(top *run) []row {
	all := s.list()
	kids := map[*run][]*run{}
	for _, r := range all {
		kids[r.parent] = append(kids[r.parent], r)
	}
	var out []row
	var add func(r *run, depth int)
	add = func(r *run, depth int) {
		name := r.id
		if r.parent != nil {
			name = filepath.Base(r.dir) // under its group's row
		}
		out = append(out, row{Status: s.status(r), Name: name, Depth: depth})
		if !r.isGroup() {
			return
		}
		byDir := map[string]*run{}
		for _, c := range kids[r] {
			byDir[c.dir] = c
		}
		for _, dir := range r.planned {
			if c := byDir[dir]; c != nil {
				add(c, depth+1)
				delete(byDir, dir)
			} else {
				out = append(out, row{Status: Status{Kind: kindTune, Method: stageMethod(dir), Phase: "not started", Group: r.id}, Name: filepath.Base(dir), Depth: depth + 1})
			}
		}
		for _, c := range kids[r] {
			if byDir[c.dir] != nil {
				add(c, depth+1)
			}
		}
	}
	if top != nil {
		add(top, 0)
		return out[1:]
	}
	for _, r := range kids[nil] {
		add(r, 0)
	}
	return out
}

func (s *Server) indexPage(w http.ResponseWriter, req *http.Request) {
	render(w, "index.html", struct {
		Dirs []string
		Runs []row
	}{s.dirs, s.rows(nil)})
}

// groupPage shows a chain or a sweep: its status, its runs, its own files.
func (s *Server) groupPage(w http.ResponseWriter, r *run, root *os.Root) {
	var files []link
	if ents, err := fs.ReadDir(root.FS(), "."); err == nil {
		for _, e := range ents {
			if _, ok := contentTypes[strings.ToLower(path.Ext(e.Name()))]; ok && e.Type().IsRegular() {
				files = append(files, link{e.Name(), "/run/" + r.id + "/files/" + e.Name()})
			}
		}
	}
	d := struct {
		Run, Dir, Kind, Resume string
		Status                 Status
		Runs                   []row
		Files                  []link
	}{r.id, r.dir, r.kind, r.resumeDir(), s.status(r), s.rows(r), files}
	render(w, "group.html", d)
}

// link is a file of a run to download.
type link struct{ Name, URL string }

// logRef is a games log of a run, with its first games for the page.
type logRef struct {
	Rel, Title string
	N          int       // games in the log
	Games      []gameRow // the games shown on the run page (the first maxInline)
	Err        string
}

// gameRow is one game of a list.
type gameRow struct {
	N            int // line in the log, from 0
	Rec          tournament.GameRecord
	Log, Outcome string
}

// gameList is the data of the template "gametable".
type gameList struct {
	Run   string
	Games []gameRow
}

// maxInline is how many games of a log the run page lists; gamesPage
// lists pageSize a page.
const (
	maxInline = 40
	pageSize  = 200
)

// runPage shows a tuning run or an arena match.
func (s *Server) runPage(w http.ResponseWriter, req *http.Request) {
	r := s.runOf(w, req)
	if r == nil {
		return
	}
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		http.Error(w, "run directory unreadable: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer root.Close()
	if r.isGroup() {
		s.groupPage(w, r, root)
		return
	}
	st := s.status(r)
	files := func(names ...string) []link {
		var out []link
		for _, n := range names {
			if fi, err := root.Stat(n); err == nil && fi.Mode().IsRegular() {
				out = append(out, link{n, "/run/" + r.id + "/files/" + n})
			}
		}
		return out
	}
	if r.kind == kindArena {
		render(w, "arena.html", s.arenaData(r, root, st, files(summaryFile, arenaGameLog, commandFile, planFile, "winrate.svg", "winrate.png", "plots/llr.svg", "plots/llr.png")))
		return
	}
	d := tuneData{Run: r.id, Dir: r.dir, Status: st, Verdict: st.Verdict,
		Files: files(r.tune.Files()...), Resume: r.resumeDir()}
	if res, err := r.tune.Open(r.dir); err == nil {
		d.About = res.About
		d.Genes = res.Genes
		d.Best = res.Best
		d.Charts, d.ChartNames, d.ChartErr = r.chartLinks()
	}
	rungs, _, err := r.tune.Ladder(r.dir)
	if err != nil {
		d.LadderErr = err.Error()
	}
	if l, ok := s.live(r); ok && len(rungs) == 0 && l.Phase == "verify" {
		// The ladder in play: its rungs so far, from the process.
		rungs, d.Playing = l.Rungs, true
		d.RungsPlanned, d.RungBatch = l.RungsPlanned, st.BatchText
	}
	for _, g := range rungs {
		d.Rungs = append(d.Rungs, rungRow{Rung: g, M: g.Match})
	}
	d.Logs = r.tuneLogs(root)
	render(w, "tune.html", d)
}

// chartLinks are the links of r's charts (chartList) for its page, the
// titles as link names, with the charts' names, or why they could not be
// built.
func (r *run) chartLinks() (links []link, names []string, errText string) {
	r.mu.Lock()
	c, err := r.chartList()
	r.mu.Unlock()
	if err != nil {
		return nil, nil, err.Error()
	}
	for _, ch := range c.charts {
		links = append(links, link{ch.Title, "/run/" + r.id + "/chart/" + ch.Name + ".svg"})
		names = append(names, ch.Name)
	}
	return links, names, ""
}

// resumeDir is the directory `tune -resume` continues r from: a chain's
// stage resumes its chain (of a sweep's seed: that seed's chain).
func (r *run) resumeDir() string {
	if r.parent != nil && r.parent.kind == kindChain {
		return r.parent.dir
	}
	return r.dir
}

type tuneData struct {
	Run, Dir   string
	Resume     string // the directory -resume continues
	Status     Status
	About      string
	Genes      []string
	Best       []float64
	Charts     []link // Name is the chart's title
	ChartNames []string
	ChartErr   string
	Rungs      []rungRow
	// Playing is set while the ladder is played (live): RungsPlanned rungs
	// (0 until the first is done), the one in play at RungBatch games.
	Playing      bool
	RungsPlanned int
	RungBatch    string
	Verdict      string
	LadderErr    string
	Files        []link
	Logs         []logRef
}

type rungRow struct {
	Rung Rung
	M    tournament.MatchSummary
}

// tuneLogs lists a tuning run's games logs: the ladder's rungs first, with
// their games, then the fitness games of each step (output.games).
func (r *run) tuneLogs(root *os.Root) []logRef {
	if fi, err := root.Stat("games"); err != nil || !fi.IsDir() {
		return nil // opening a named pipe would wait for a writer
	}
	f, err := root.Open("games")
	if err != nil {
		return nil
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	var ladder, fitness []logRef
	for _, e := range ents {
		rel := "games/" + e.Name()
		if !e.Type().IsRegular() || !isGameLog(kindTune, rel) {
			continue
		}
		isLadder := strings.HasPrefix(e.Name(), "ladder-")
		ref := r.logRef(rel, isLadder)
		if isLadder {
			ladder = append(ladder, ref)
		} else {
			fitness = append(fitness, ref)
		}
	}
	return append(ladder, fitness...)
}

// logRef indexes the log at rel and, with games, reads its first
// maxInline games.
func (r *run) logRef(rel string, games bool) logRef {
	ref := logRef{Rel: rel, Title: strings.TrimSuffix(path.Base(rel), ".jsonl")}
	to := 0
	if games {
		to = maxInline
	}
	recs, n, err := r.readLog(rel, 0, to)
	if err != nil {
		ref.Err = err.Error()
	}
	ref.N, ref.Games = n, rows(rel, 0, recs)
	return ref
}

// rows are the list rows of recs, the games from line from of log.
func rows(log string, from int, recs []tournament.GameRecord) []gameRow {
	out := make([]gameRow, len(recs))
	for i, g := range recs {
		out[i] = gameRow{N: from + i, Rec: g, Log: log, Outcome: outcome(g)}
	}
	return out
}

// outcome says who won and why: "Black wins (B+, six)".
func outcome(g tournament.GameRecord) string {
	who := "draw"
	switch g.Result.String() {
	case "B+":
		who = "Black wins"
	case "W+":
		who = "White wins"
	}
	return fmt.Sprintf("%s (%s, %s)", who, g.Result, g.Reason)
}

type arenaData struct {
	Run, Dir  string
	Status    Status
	Summary   tournament.Summary
	Final     bool // Summary is summary.json's
	Players   []tournament.PlayerInfo
	Command   string
	TableErr  string
	Files     []link
	Log       logRef // games.jsonl: its last games
	LastFrom  int
	Winrate   string // URL of winrate.svg, once written
	Charts    []link // the match's charts (arenaCharts): Name is the title
	ChartErr  string
	NoMatchup bool
}

// arenaData is an arena page: summary.json once the match wrote it,
// before that the table of the games log so far.
func (s *Server) arenaData(r *run, root *os.Root, st Status, files []link) arenaData {
	d := arenaData{Run: r.id, Dir: r.dir, Status: st, Files: files}
	p := arenaPlan(root)
	d.Command = "arena " + strings.Join(quoteArgs(p.args), " ")
	sum, final, err := readSummary(root)
	if err != nil {
		d.TableErr = err.Error()
	}
	r.mu.Lock()
	g := r.logFor(arenaGameLog)
	if err := g.update(root); err != nil {
		d.TableErr = err.Error()
	}
	if !final {
		sum = g.table.summary(p.head)
		if g.table.err != "" {
			d.TableErr = "games.jsonl: " + g.table.err
		}
	}
	n := len(g.offsets)
	from := max(0, n-maxInline)
	recs, err := g.games(root, from, n)
	seen := slices.Clone(g.table.names)
	r.mu.Unlock()
	if err != nil {
		d.TableErr = err.Error()
	}
	slices.Reverse(recs)
	d.Log = logRef{Rel: arenaGameLog, Title: "games", N: n}
	for i, rec := range recs {
		d.Log.Games = append(d.Log.Games, gameRow{N: n - 1 - i, Rec: rec, Log: arenaGameLog, Outcome: outcome(rec)})
	}
	d.LastFrom = max(0, n-pageSize)
	d.Summary, d.Final = sum, final
	d.Players = sum.Players
	if l, ok := s.live(r); ok && len(d.Players) == 0 {
		d.Players = l.Players
	}
	if len(d.Players) == 0 {
		for _, name := range seen {
			d.Players = append(d.Players, tournament.PlayerInfo{Name: name})
		}
	}
	d.NoMatchup = len(sum.Matchups) == 0
	if fi, err := root.Stat("winrate.svg"); err == nil && fi.Mode().IsRegular() {
		d.Winrate = "/run/" + r.id + "/files/winrate.svg"
	}
	d.Charts, _, d.ChartErr = r.chartLinks()
	return d
}

// quoteArgs quotes the words of a command line that need it.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"\\") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return out
}

// logParam returns the games log the request's log= names, or answers
// 403/404.
func (s *Server) logParam(w http.ResponseWriter, req *http.Request) (*run, string, bool) {
	r := s.runOf(w, req)
	if r == nil {
		return nil, "", false
	}
	rel := req.URL.Query().Get("log")
	if rel == "" && r.kind == kindArena {
		rel = arenaGameLog
	}
	if !isGameLog(r.kind, rel) {
		http.Error(w, fmt.Sprintf("log=%q is not a games log of this run", rel), http.StatusForbidden)
		return nil, "", false
	}
	return r, rel, true
}

// intParam reads a non-negative integer query parameter (def when
// absent).
func intParam(req *http.Request, name string, def int) (int, error) {
	v := req.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want an integer ≥ 0", name, v)
	}
	return n, nil
}

// gamesPage lists the games of one log, pageSize a page from from=.
func (s *Server) gamesPage(w http.ResponseWriter, req *http.Request) {
	r, rel, ok := s.logParam(w, req)
	if !ok {
		return
	}
	from, err := intParam(req, "from", 0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	recs, n, err := r.readLog(rel, from, from+pageSize)
	if err != nil {
		httpError(w, err)
		return
	}
	d := struct {
		Run, Log         string
		N, From, To      int
		Prev, Next, Last int
		Games            []gameRow
	}{Run: r.id, Log: rel, N: n, From: from, To: from + len(recs), Prev: -1, Next: -1, Last: max(0, (n-1)/pageSize*pageSize), Games: rows(rel, from, recs)}
	if from > 0 {
		d.Prev = max(0, from-pageSize)
	}
	if from+pageSize < n {
		d.Next = from + pageSize
	}
	render(w, "games.html", d)
}

// readLog reads games [from, to) of the log at rel (to clipped to the
// log's games), and the log's number of games.
func (r *run) readLog(rel string, from, to int) ([]tournament.GameRecord, int, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.logFor(rel)
	if err := g.update(root); err != nil {
		return nil, 0, err
	}
	recs, err := g.games(root, from, to)
	return recs, len(g.offsets), err
}

// httpError answers err: 403 for a forbidden path, 500 otherwise.
func httpError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, errForbidden) {
		code = http.StatusForbidden
	}
	http.Error(w, err.Error(), code)
}

// readGame reads game n of the log the request names, or answers an
// error.
func (s *Server) readGame(w http.ResponseWriter, req *http.Request) (*run, string, int, int, tournament.GameRecord, bool) {
	var rec tournament.GameRecord
	r, rel, ok := s.logParam(w, req)
	if !ok {
		return nil, "", 0, 0, rec, false
	}
	n, err := intParam(req, "n", 0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return nil, "", 0, 0, rec, false
	}
	recs, total, err := r.readLog(rel, n, n+1)
	switch {
	case err != nil:
		httpError(w, err)
		return nil, "", 0, 0, rec, false
	case len(recs) == 0:
		http.Error(w, fmt.Sprintf("%s has %d games: no game n=%d", rel, total, n), http.StatusNotFound)
		return nil, "", 0, 0, rec, false
	}
	return r, rel, n, total, recs[0], true
}

func (s *Server) gameJSON(w http.ResponseWriter, req *http.Request) {
	if _, _, _, _, rec, ok := s.readGame(w, req); ok {
		writeJSON(w, rec)
	}
}

// gamePage is the game viewer.
func (s *Server) gamePage(w http.ResponseWriter, req *http.Request) {
	r, rel, n, total, rec, ok := s.readGame(w, req)
	if !ok {
		return
	}
	v := newView(rec)
	d := struct {
		Run, Log   string
		N, Total   int
		Prev, Next int
		Rec        tournament.GameRecord
		Outcome    string
		View       view
		Letters    []string
		Data       template.JS
	}{Run: r.id, Log: rel, N: n, Total: total, Prev: n - 1, Next: n + 1, Rec: rec, Outcome: outcome(rec), View: v}
	if d.Next >= total {
		d.Next = -1
	}
	for i := range boardSize {
		d.Letters = append(d.Letters, string(rune('A'+i)))
	}
	d.Data = v.json()
	render(w, "game.html", d)
}

// Board geometry of the viewer (SVG units): the first line at margin, a
// cell apart.
const (
	boardSize = 19
	margin    = 28
	cell      = 24
)

// pos is the SVG coordinate of line i.
func pos(i int) int { return margin + i*cell }
