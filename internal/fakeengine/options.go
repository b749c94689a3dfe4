package main

// The options mode (-options) and the record (-record): see doc.go.

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// option is one declared option and its value in force.
type option struct {
	name          string
	isInt         bool
	min, max, val float64
}

// options are the declared options in the order of -options.
type options []*option

// parseSpec reads -options' SPEC: NAME:int|float:DEFAULT:MIN:MAX, … .
func parseSpec(spec string) (options, error) {
	var decl options
	for _, item := range strings.Split(spec, ",") {
		f := strings.Split(item, ":")
		if len(f) != 5 || f[0] == "" || (f[1] != "int" && f[1] != "float") {
			return nil, fmt.Errorf("-options: %q: want NAME:int|float:DEFAULT:MIN:MAX", item)
		}
		o := &option{name: f[0], isInt: f[1] == "int"}
		var nums [3]float64
		for i, s := range f[2:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("-options: %q: %q is not a number", item, s)
			}
			nums[i] = v
		}
		o.val, o.min, o.max = nums[0], nums[1], nums[2]
		if o.min > o.max || o.val < o.min || o.val > o.max {
			return nil, fmt.Errorf("-options: %q: want MIN ≤ DEFAULT ≤ MAX", item)
		}
		if decl.find(o.name) != nil {
			return nil, fmt.Errorf("-options: %q declared twice", o.name)
		}
		decl = append(decl, o)
	}
	return decl, nil
}

// find returns the option named name (any case), or nil.
func (op options) find(name string) *option {
	for _, o := range op {
		if strings.EqualFold(o.name, name) {
			return o
		}
	}
	return nil
}

// set gives option name the value text, or says why not (the option keeps
// its value).
func (op options) set(name, text string) error {
	o := op.find(name)
	if o == nil {
		return fmt.Errorf("no option %q", name)
	}
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%q is not a number", text)
	case o.isInt && v != math.Trunc(v):
		return fmt.Errorf("%s takes a whole number, not %s", o.name, text)
	case v < o.min || v > o.max:
		return fmt.Errorf("%s out of range %s..%s", text, num(o.min), num(o.max))
	}
	o.val = v
	return nil
}

// readFile sets the values of a file of "NAME VALUE" lines.
func (op options) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	in := bufio.NewScanner(f)
	for n := 1; in.Scan(); n++ {
		line := strings.TrimSpace(in.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := strings.Fields(line)
		if len(w) != 2 {
			return fmt.Errorf("%s:%d: want NAME VALUE", path, n)
		}
		if err := op.set(w[0], w[1]); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return in.Err()
}

// command carries out an options line ("options", "setoption", "param",
// "valuesfile"): its reply lines, and whether the line was one of them.
func (op options) command(line string, f []string) ([]string, bool) {
	fail := func(err error) ([]string, bool) { return []string{"error " + line + ": " + err.Error()}, true }
	switch strings.ToLower(f[0]) {
	case "options":
		var out []string
		for _, o := range op {
			kind := "float"
			if o.isInt {
				kind = "spin"
			}
			out = append(out, fmt.Sprintf("option name %s type %s default %s min %s max %s", o.name, kind, num(o.val), num(o.min), num(o.max)))
		}
		return append(out, "optionsok"), true
	case "setoption", "param":
		name, val, ok := "", "", false
		if len(f) == 5 && strings.EqualFold(f[1], "name") && strings.EqualFold(f[3], "value") {
			name, val, ok = f[2], f[4], true // setoption name NAME value V
		} else if len(f) == 3 && strings.EqualFold(f[0], "param") {
			name, val, ok = f[1], f[2], true // param NAME V
		}
		if !ok {
			return fail(errors.New("want setoption name NAME value V, or param NAME V"))
		}
		if err := op.set(name, val); err != nil {
			return fail(err)
		}
		return nil, true
	case "valuesfile":
		if len(f) != 2 {
			return fail(errors.New("want valuesfile FILE"))
		}
		if err := op.readFile(f[1]); err != nil {
			return fail(err)
		}
		return nil, true
	}
	return nil, false
}

// values returns the values in force by name.
func (op options) values() map[string]float64 {
	m := make(map[string]float64, len(op))
	for _, o := range op {
		m[o.name] = o.val
	}
	return m
}

// num writes a number as briefly as it reads back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// splitValueArgs takes the arguments --NAME=VALUE whose NAME is not a flag
// out of args: the rest, and the NAME, VALUE pairs in order.
func splitValueArgs(args []string) (rest []string, vals [][2]string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), vals
		}
		name, val, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if ok && strings.HasPrefix(a, "--") && name != "" && flag.Lookup(name) == nil {
			vals = append(vals, [2]string{name, val})
			continue
		}
		rest = append(rest, a)
	}
	return rest, vals
}

// recorder appends one JSON line per "new" to the -record file.
type recorder struct {
	f    *os.File
	sent []string
}

// entry is one line of the record.
type entry struct {
	PID    int                `json:"pid"`
	Argv   []string           `json:"argv"`
	Values map[string]float64 `json:"values"`
	Sent   []string           `json:"sent"`
}

// write records a "new" with the values in force and the lines sent since
// the previous one, in one write.
func (r *recorder) write(op options) error {
	b, err := json.Marshal(entry{PID: os.Getpid(), Argv: os.Args, Values: op.values(), Sent: r.sent})
	if err != nil {
		return err
	}
	r.sent = r.sent[:0]
	_, err = r.f.Write(append(b, '\n'))
	return err
}
