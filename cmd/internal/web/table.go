package web

import (
	"encoding/json"
	"os"

	"github.com/roadtune/roadtune/tournament"
)

// liveTable is an arena match's table built from its games log as it
// grows (tournament.TableBuilder, one record at a time, no records kept).
// The entrants' names come from the records: a record naming an entrant
// not seen before rebuilds the table from the log read so far, which
// happens once per entrant, early in a match.
type liveTable struct {
	names []string
	b     *tournament.TableBuilder
	err   string // why a record could not be counted (the first such record)
}

// add counts the record in line, the last game g has read.
func (t *liveTable) add(line []byte, root *os.Root, g *gameLog) {
	var rec tournament.GameRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		t.fail(err)
		return
	}
	if changed := t.learn(rec); t.b == nil || changed {
		t.b = tournament.NewTableBuilder(t.names, false)
		before, err := g.games(root, 0, len(g.offsets)-1)
		if err != nil {
			t.fail(err)
		}
		for _, r := range before {
			t.count(r)
		}
	}
	t.count(rec)
}

// learn records the names rec gives its entrants and reports whether
// they are new.
func (t *liveTable) learn(rec tournament.GameRecord) bool {
	changed := false
	for _, p := range []struct {
		i    int
		name string
	}{{rec.BlackIndex, rec.Black}, {rec.WhiteIndex, rec.White}} {
		if p.i < 0 || p.i > 1<<12 {
			continue // TableBuilder.Add refuses the record
		}
		for len(t.names) <= p.i {
			t.names = append(t.names, "")
		}
		if t.names[p.i] != p.name {
			t.names[p.i], changed = p.name, true
		}
	}
	return changed
}

func (t *liveTable) count(rec tournament.GameRecord) {
	rec.Moves, rec.MoveTimes = nil, nil
	if err := t.b.Add(rec); err != nil {
		t.fail(err)
	}
}

func (t *liveTable) fail(err error) {
	if t.err == "" {
		t.err = err.Error()
	}
}

// summary is the table so far in the shape of arena's summary.json, head
// (the schedule, players, pairs …) completed by tournament.Summarize.
func (t *liveTable) summary(head tournament.Summary) tournament.Summary {
	if t.b == nil {
		return tournament.Summarize(tournament.NewTableBuilder(nil, false).Table(), head)
	}
	return tournament.Summarize(t.b.Table(), head)
}
