package spsa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// PerGene is an option given for every gene at once or gene by gene, as
// fishtest's SPSA takes c_end and r_end per parameter. In TOML (and JSON)
// it is either a number, which sets every gene (All), or a table keyed by
// gene name, e.g. r_end = {S1 = 0.004}, which sets the genes it names
// (Genes); the genes a table does not name take the option's default.
// The zero PerGene is the default for every gene.
type PerGene struct {
	// All is the value of every gene not in Genes; 0 means the option's
	// default.
	All float64
	// Genes holds values by gene name; nil or empty means none.
	Genes map[string]float64
}

// value is the value of gene name, or def when neither Genes nor All
// sets it.
func (v PerGene) value(name string, def float64) float64 {
	if x, ok := v.Genes[name]; ok {
		return x
	}
	if v.All != 0 {
		return v.All
	}
	return def
}

// set replaces v with a decoded number or table: a number sets All and
// clears Genes, a table sets Genes and clears All, so that one TOML value
// always says all there is.
func (v *PerGene) set(data any) error {
	switch x := data.(type) {
	case map[string]any:
		genes := make(map[string]float64, len(x))
		for name, e := range x {
			f, ok := number(e)
			if !ok {
				return fmt.Errorf("gene %q: %v is not a number", name, e)
			}
			genes[name] = f
		}
		*v = PerGene{Genes: genes}
		return nil
	default:
		f, ok := number(data)
		if !ok {
			return fmt.Errorf("%v is neither a number nor a table of numbers by gene name", data)
		}
		*v = PerGene{All: f}
		return nil
	}
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// UnmarshalTOML reads a number or a table of numbers by gene name.
func (v *PerGene) UnmarshalTOML(data any) error { return v.set(data) }

// MarshalTOML writes a table (inline, with the genes in name order) when
// Genes is set, else the number All.
func (v PerGene) MarshalTOML() ([]byte, error) {
	if len(v.Genes) == 0 {
		return []byte(strconv.FormatFloat(v.All, 'g', -1, 64)), nil
	}
	var b bytes.Buffer
	b.WriteString("{")
	for i, name := range slices.Sorted(maps.Keys(v.Genes)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", tomlKey(name), strconv.FormatFloat(v.Genes[name], 'g', -1, 64))
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// tomlKey quotes a gene name unless it is a bare TOML key.
func tomlKey(s string) string {
	if s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return s
	}
	return strconv.Quote(s)
}

// UnmarshalJSON reads a number or an object of numbers by gene name.
func (v *PerGene) UnmarshalJSON(b []byte) error {
	var genes map[string]float64
	if err := json.Unmarshal(b, &genes); err == nil && genes != nil {
		*v = PerGene{Genes: genes}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("spsa: %s is neither a number nor an object of numbers by gene name", b)
	}
	*v = PerGene{All: f}
	return nil
}

// MarshalJSON writes an object when Genes is set, else the number All.
func (v PerGene) MarshalJSON() ([]byte, error) {
	if len(v.Genes) == 0 {
		return json.Marshal(v.All)
	}
	return json.Marshal(v.Genes)
}

// check validates v as the option key for the genes names: All finite and
// ≥ 0 (0 = the default), every gene of Genes known and its value finite
// and > 0. The error names the key, or key.gene for one gene.
func (v PerGene) check(key string, names []string) error {
	if !finite(v.All) || v.All < 0 {
		return &optimize.OptionError{Key: key, Msg: fmt.Sprintf("must be a finite number > 0 (or 0 for the default), have %g", v.All)}
	}
	for _, name := range slices.Sorted(maps.Keys(v.Genes)) {
		x := v.Genes[name]
		if !slices.Contains(names, name) {
			return &optimize.OptionError{Key: key + "." + name, Msg: fmt.Sprintf("no gene %q in the schema (genes %s)", name, strings.Join(names, ", "))}
		}
		if !finite(x) || x <= 0 {
			return &optimize.OptionError{Key: key + "." + name, Msg: fmt.Sprintf("must be a finite number > 0, have %g", x)}
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
