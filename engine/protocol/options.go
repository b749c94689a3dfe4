package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/engine"
)

// MaxGeneOption bounds a weight gene set by `setoption`, in road-score
// units either way: the engine takes any finite gene, and published and
// tuned vectors stay below 10,000.
const MaxGeneOption = 1e6

// writeOptions answers `options`: one line per setting of engine.Params,
// then one per weight gene of the loaded vector's schema, then
// `optionsok`. An integer setting is UCI's spin; a float setting or gene is
// `type float` with the same fields:
//
//	option name Width type spin default 15 min 1 max 100
//	option name DefendShare type float default 0.7 min 0.01 max 0.9
//	option name M1 type float default 20 min -1000000 max 1000000
//
// default is the value in force now (the engine's starting value until a
// setoption changes it).
func (s *Server) writeOptions() {
	st := s.eng.Settings()
	for _, p := range engine.Params() {
		s.reply(Option{Name: p.Name, Float: p.Float, Default: p.Get(st), Min: p.Min, Max: p.Max}.String())
	}
	w := s.eng.Weights()
	for i, name := range w.Schema.GeneNames() {
		s.reply(Option{Name: name, Float: true, Default: w.Genes[i], Min: -MaxGeneOption, Max: MaxGeneOption}.String())
	}
	s.reply(Reply{Kind: OptionsOK}.String())
}

// setOption carries out `setoption`: a setting of engine.Params by its
// name, or a gene of the loaded vector by its name (both without regard to
// case). Success answers nothing; an unknown name (the error lists the
// known ones) or a value outside the option's range answers an error line
// and changes nothing.
func (s *Server) setOption(c Command) {
	if p, ok := engine.ParamByName(c.Option); ok {
		err := s.setSettings(func(st *engine.Settings) error { return p.Set(st, c.Value) })
		if err != nil {
			s.fail(fmt.Errorf("%s: %w", c, err))
		}
		return
	}
	w := s.eng.Weights()
	names := w.Schema.GeneNames()
	for i, name := range names {
		if !strings.EqualFold(name, c.Option) {
			continue
		}
		if c.Value < -MaxGeneOption || c.Value > MaxGeneOption {
			s.fail(fmt.Errorf("%s: %s out of range %s..%s", c, num(c.Value), num(-MaxGeneOption), num(MaxGeneOption)))
			return
		}
		w.Genes[i] = c.Value
		if err := s.eng.SetWeights(w); err != nil {
			s.fail(fmt.Errorf("%s: %w", c, err))
		}
		return
	}
	s.fail(fmt.Errorf("%s: no option %s (send options for the list: the search and time settings, and the %s genes %s)", c, quote(c.Option),
		w.Schema, strings.Join(names, " ")))
}

// num writes an option's number as briefly as it reads back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
