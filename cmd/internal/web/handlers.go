package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/results"
)

// pollInterval is how often an event stream looks at its run; keepAlive
// how often it sends a comment when nothing changed.
const (
	pollInterval = 500 * time.Millisecond
	keepAlive    = 15 * time.Second
)

// pageCSP is the pages' content security policy: their own scripts only,
// no external URL. Inline style is allowed for the charts' SVG, whose
// elements carry style attributes.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// baseCSP is the content security policy of every response that is not a
// page (charts' SVG, files, JSON, errors, the pages' CSS and JavaScript):
// nothing loads, no script runs, and a browser opening one directly treats
// it as a sandboxed document.
const baseCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox"

// routes builds the URL scheme (see Handler).
func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.indexPage)
	m.HandleFunc("GET /runs.json", s.runsJSON)
	m.Handle("GET /static/", http.StripPrefix("/static/", noListing(http.FileServerFS(staticFS))))
	m.HandleFunc("GET /run/{id}", func(w http.ResponseWriter, req *http.Request) {
		if r := s.runOf(w, req); r != nil {
			http.Redirect(w, req, "/run/"+r.id+"/", http.StatusMovedPermanently)
		}
	})
	m.HandleFunc("GET /run/{id}/{$}", s.runPage)
	m.HandleFunc("GET /run/{id}/status.json", s.statusJSON)
	m.HandleFunc("GET /run/{id}/events", s.events)
	m.HandleFunc("GET /run/{id}/chart/{name}", s.chart)
	m.HandleFunc("GET /run/{id}/files/{path...}", s.file)
	m.HandleFunc("GET /run/{id}/games", s.gamesPage)
	m.HandleFunc("GET /run/{id}/game", s.gamePage)
	m.HandleFunc("GET /run/{id}/game.json", s.gameJSON)
	s.mux = m
}

// Handler serves the pages and files, read-only:
//
//	/                              the runs: name, kind, phase, steps, games, verdict
//	/runs.json                     the same as JSON (a list of Status)
//	/run/ID/                       a run's page (tuning run or arena match)
//	/run/ID/status.json            its Status
//	/run/ID/events                 server-sent events: a "status" event (Status JSON) whenever it changes
//	/run/ID/chart/NAME.svg         a tuning run's chart (TuneRun.Charts), rendered now
//	/run/ID/files/PATH             a file of the run directory
//	/run/ID/games?log=PATH&from=K  the games of a games log, 200 a page
//	/run/ID/game?log=PATH&n=K      the game viewer: game K (0-based line) of the log
//	/run/ID/game.json?log=PATH&n=K that game's record (the games log's JSON line)
//	/static/…                      the pages' CSS and JavaScript (files only: no directory is listed)
//
// Methods other than GET and HEAD are refused (405). Files are opened
// through an os.Root of the run directory: a path with "..", or through a
// symbolic link leading outside it, is refused (403), a missing file is
// 404. Nothing is ever written. Every response carries a
// Content-Security-Policy: the pages' own (pageCSP), every other response
// baseCSP (no script, sandboxed).
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", baseCSP) // the pages set their own
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		s.mux.ServeHTTP(w, req)
	})
}

// noListing serves h's files but answers 404 for a directory, so that no
// directory is ever listed.
func noListing(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		name := strings.TrimPrefix(req.URL.Path, "/")
		if fi, err := fs.Stat(staticFS, path.Clean("/" + name)[1:]); name == "" || strings.HasSuffix(name, "/") || err == nil && fi.IsDir() {
			http.NotFound(w, req)
			return
		}
		h.ServeHTTP(w, req)
	})
}

// runOf returns the run the request's {id} names, or answers 404.
func (s *Server) runOf(w http.ResponseWriter, req *http.Request) *run {
	r := s.lookup(req.PathValue("id"))
	if r == nil {
		http.Error(w, "no run "+req.PathValue("id"), http.StatusNotFound)
	}
	return r
}

// writeJSON answers v as application/json.
func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(append(data, '\n'))
}

func (s *Server) runsJSON(w http.ResponseWriter, req *http.Request) {
	out := []Status{}
	for _, r := range s.list() {
		out = append(out, s.status(r))
	}
	writeJSON(w, out)
}

func (s *Server) statusJSON(w http.ResponseWriter, req *http.Request) {
	if r := s.runOf(w, req); r != nil {
		writeJSON(w, s.status(r))
	}
}

// events streams r's status: one event at once, then one each time it
// changes (looked at every pollInterval), a comment every keepAlive, until
// the client goes or the server closes.
func (s *Server) events(w http.ResponseWriter, req *http.Request) {
	r := s.runOf(w, req)
	if r == nil {
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming not supported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if req.Method == http.MethodHead {
		return
	}
	var last []byte
	send := func() error {
		data, err := json.Marshal(s.status(r))
		if err != nil || bytes.Equal(data, last) {
			return err
		}
		last = data
		if _, err := fmt.Fprintf(w, "event: status\ndata: %s\n\n", data); err != nil {
			return err
		}
		fl.Flush()
		return nil
	}
	fmt.Fprint(w, "retry: 2000\n\n")
	if send() != nil {
		return
	}
	poll, keep := time.NewTicker(pollInterval), time.NewTicker(keepAlive)
	defer poll.Stop()
	defer keep.Stop()
	for {
		select {
		case <-req.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-poll.C:
			if send() != nil {
				return
			}
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// chart renders one of a run's charts as SVG: a tuning run's, or a
// match's SPRT chart (llr).
func (s *Server) chart(w http.ResponseWriter, req *http.Request) {
	r := s.runOf(w, req)
	if r == nil {
		return
	}
	name, ok := strings.CutSuffix(req.PathValue("name"), ".svg")
	if !ok {
		http.NotFound(w, req)
		return
	}
	svg, err := r.chartSVG(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		http.NotFound(w, req)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(svg)
}

// chartCache holds a run's charts and their SVG at one fingerprint.
type chartCache struct {
	fp     string
	charts []results.NamedChart
	svg    map[string][]byte
}

// chartList returns r's charts (a tuning run's TuneRun.Charts, a match's
// arenaCharts), built again when the run's files changed. Call with r.mu
// held.
func (r *run) chartList() (*chartCache, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fp := r.fingerprint(root)
	if c := r.charts; c != nil && c.fp == fp {
		return c, nil
	}
	if r.kind == kindArena {
		list, err := r.arenaCharts(root)
		if err != nil {
			return nil, err
		}
		r.charts = &chartCache{fp: fp, charts: list, svg: map[string][]byte{}}
		return r.charts, nil
	}
	res, err := r.tune.Open(r.dir)
	if err != nil {
		return nil, err
	}
	list, err := res.Charts()
	if err != nil {
		return nil, err
	}
	r.charts = &chartCache{fp: fp, charts: list, svg: map[string][]byte{}}
	return r.charts, nil
}

// chartSVG renders the chart called name; fs.ErrNotExist when the run has
// no such chart (yet).
func (r *run) chartSVG(name string) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.chartList()
	if err != nil {
		return nil, err
	}
	if svg, ok := c.svg[name]; ok {
		return svg, nil
	}
	for _, ch := range c.charts {
		if ch.Name == name {
			svg, err := ch.Chart.SVG()
			if err != nil {
				return nil, err
			}
			c.svg[name] = svg
			return svg, nil
		}
	}
	return nil, fs.ErrNotExist
}

// contentTypes are the types of the files a run directory holds; text
// files show in the browser.
var contentTypes = map[string]string{
	".json": "application/json", ".jsonl": "text/plain; charset=utf-8", ".toml": "text/plain; charset=utf-8",
	".md": "text/plain; charset=utf-8", ".csv": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
	".log": "text/plain; charset=utf-8", ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml",
	".png": "image/png", ".sgf": "application/x-go-sgf", ".gz": "application/gzip",
}

// file serves a file of a run directory through its os.Root.
func (s *Server) file(w http.ResponseWriter, req *http.Request) {
	r := s.runOf(w, req)
	if r == nil {
		return
	}
	rel := req.PathValue("path")
	if !validRel(rel) {
		http.Error(w, "forbidden path", http.StatusForbidden)
		return
	}
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		http.Error(w, "run directory unreadable", http.StatusInternalServerError)
		return
	}
	defer root.Close()
	f, _, err := fileio.OpenIn(root, filepath.FromSlash(rel), fileio.RunFile)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fileio.ErrNotRegular):
		http.NotFound(w, req)
		return
	case err != nil: // outside the run directory, or not readable
		http.Error(w, "forbidden path", http.StatusForbidden)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, req)
		return
	}
	ct, ok := contentTypes[strings.ToLower(path.Ext(rel))]
	if !ok {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, req, fi.Name(), fi.ModTime(), f)
}
