package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/internal/fileio"
)

// Provenance records where a weight vector came from: the tool that wrote it,
// the run id, the method (ga, pso, hand, …), the generation or
// iteration, the fitness, the date (RFC 3339 or YYYY-MM-DD), a source citation
// for hand-set vectors and a free note. A vector from a stage of a chain of
// runs names the chain (its id) and the stage (from 1); one exported before
// its run or chain ended says what was done of what in Unfinished (e.g.
// "220 of 16000 iterations"), empty for a finished run. Every field is
// optional: roadtune fills in what it knows when it writes a weight file
// (the tool, run, method, step, fitness, date), and a hand-written file
// may leave the whole provenance out.
type Provenance struct {
	Tool       string  `json:"tool,omitempty"`
	Run        string  `json:"run,omitempty"`
	Chain      string  `json:"chain,omitempty"`
	Stage      int     `json:"stage,omitempty"`
	Unfinished string  `json:"unfinished,omitempty"`
	Method     string  `json:"method,omitempty"`
	Generation int     `json:"generation,omitempty"`
	Fitness    float64 `json:"fitness,omitempty"`
	Date       string  `json:"date,omitempty"`
	Source     string  `json:"source,omitempty"`
	Note       string  `json:"note,omitempty"`
}

// WeightFile is a tuned (or hand-set) weight vector as stored on disk in JSON:
// a name, the schema, the gene values in Schema.GeneNames order, and
// provenance (the tool, run and step that made it). Only the schema and
// the values are required on disk (twelve numbers of the tempo schema
// make a file): a file without a name is named after itself
// (ParseWeightFile), and one without provenance has none.
type WeightFile struct {
	Name       string     `json:"name"`
	Schema     Schema     `json:"schema"`
	Values     []float64  `json:"values"`
	Provenance Provenance `json:"provenance,omitzero"`
}

// LoadWeightFile reads and checks the weight file at path: a regular file
// of at most 1 MiB (fileio.Weights). Errors are *fileio.Error values
// naming the file, and for its content the line and the field (see
// ParseWeightFile).
func LoadWeightFile(path string) (*WeightFile, error) {
	data, err := fileio.ReadFile(path, fileio.Weights)
	if err != nil {
		return nil, err
	}
	return ParseWeightFile(path, data)
}

// ParseWeightFile decodes a weight file from data; name is the file name used
// in errors ("name:line: field …") and, without a "name" field, the
// vector's name (its base name without the extension: "my.json" is "my").
// Only "schema" and "values" are required; "name" and "provenance" are
// optional. It rejects: malformed JSON, a top level that is not an object,
// unknown fields, a missing schema or values, an empty name, an unknown
// schema, a wrong number of values,
// values that are not JSON numbers (strings such as "NaN" included) or do not
// fit a float64, and fields of the wrong type. Errors are *fileio.Error
// values (bad input); a malformed-JSON error gives the line, never the
// offending byte.
func ParseWeightFile(name string, data []byte) (*WeightFile, error) {
	f, err := parseWeightFile(name, data)
	return f, fileio.Bad(err)
}

func parseWeightFile(name string, data []byte) (*WeightFile, error) {
	fields, err := objectFields(name, data, 0, data, "")
	if err != nil {
		return nil, err
	}
	var f WeightFile
	seen := map[string]bool{}
	var valuesField *rawField
	for i := range fields {
		fd := &fields[i]
		seen[fd.key] = true
		switch fd.key {
		case "name":
			if err := fd.decode(name, data, &f.Name); err != nil {
				return nil, err
			}
			if f.Name == "" {
				return nil, fd.errorf(name, data, "must not be empty")
			}
		case "schema":
			var s string
			if err := fd.decode(name, data, &s); err != nil {
				return nil, err
			}
			sc, err := ParseSchema(s)
			if err != nil {
				return nil, fd.errorf(name, data, "unknown schema %q (want %s)", s, SchemaNames)
			}
			f.Schema = sc
		case "values":
			valuesField = fd
			vals, err := parseNumbers(name, data, fd)
			if err != nil {
				return nil, err
			}
			f.Values = vals
		case "provenance":
			if err := parseProvenance(name, data, fd, &f.Provenance); err != nil {
				return nil, err
			}
		default:
			return nil, fd.errorf(name, data, "unknown field")
		}
	}
	for _, k := range []string{"schema", "values"} {
		if !seen[k] {
			return nil, fmt.Errorf("%s: field %q: missing (a weight file needs at least \"schema\" and \"values\")", name, k)
		}
	}
	if !seen["name"] {
		f.Name = fileName(name)
	}
	if want := f.Schema.NumGenes(); len(f.Values) != want {
		return nil, valuesField.errorf(name, data, "%s schema needs %d values (%v), got %d",
			f.Schema, want, f.Schema.GeneNames(), len(f.Values))
	}
	return &f, nil
}

// rawField is one member of a JSON object: its key (with the dotted path
// prefix), the byte offset of the key, and the raw value.
type rawField struct {
	key  string
	path string
	off  int64
	base int64 // offset of raw within the whole file
	raw  json.RawMessage
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

func (fd *rawField) errorf(file string, data []byte, format string, args ...any) error {
	return fmt.Errorf("%s:%d: field %q: %s", file, lineAt(data, fd.off), fd.path, fmt.Sprintf(format, args...))
}

func (fd *rawField) decode(file string, data []byte, v any) error {
	if err := json.Unmarshal(fd.raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fd.errorf(file, data, "want a %s, got %s %s", te.Type, te.Value, bytes.TrimSpace(fd.raw))
		}
		return fd.errorf(file, data, "%v", err)
	}
	return nil
}

// objectFields splits the JSON object in obj (which starts at offset base of
// the whole file data) into its members, keeping key offsets for errors.
func objectFields(file string, obj []byte, base int64, data []byte, prefix string) ([]rawField, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s:%d: malformed JSON: %s", file, lineAt(data, base+se.Offset), unquoteSyntax(se.Error()))
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%s:%d: malformed JSON: unexpected end of input", file, lineAt(data, base+int64(len(obj))))
		}
		return fmt.Errorf("%s:%d: malformed JSON: %v", file, lineAt(data, base+dec.InputOffset()), err)
	}
	where := "top level"
	if prefix != "" {
		where = fmt.Sprintf("field %q", prefix[:len(prefix)-1])
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%s:%d: %s: want a JSON object", file, lineAt(data, base), where)
	}
	var out []rawField
	for dec.More() {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		valOff := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			return nil, syntax(err)
		}
		// InputOffset before the value points just after the key; skip the
		// colon and blanks to find where raw starts.
		for valOff < int64(len(obj)) && (obj[valOff] == ':' || obj[valOff] == ' ' || obj[valOff] == '\t' || obj[valOff] == '\n' || obj[valOff] == '\r') {
			valOff++
		}
		for off < int64(len(obj)) && obj[off] != '"' {
			off++
		}
		out = append(out, rawField{key: key, path: prefix + key, off: base + off, base: base + valOff, raw: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, fmt.Errorf("%s:%d: malformed JSON: data after the %s object", file, lineAt(data, base+dec.InputOffset()), where)
		}
		return nil, syntax(err)
	}
	return out, nil
}

// unquoteSyntax drops the offending character from a JSON syntax error
// ("invalid character 'r' looking for beginning of value" becomes
// "unexpected character looking for beginning of value"), so that no error
// quotes the contents of a file that is not a weight file (weights
// /etc/shadow over the protocol).
func unquoteSyntax(msg string) string {
	const prefix = "invalid character '"
	if !strings.HasPrefix(msg, prefix) {
		return msg
	}
	rest := msg[len(prefix):]
	// The quoted character ends at the first "' " after its first byte
	// (the character itself may be a quote or a blank).
	if i := strings.Index(rest[min(1, len(rest)):], "' "); i >= 0 {
		return "unexpected character" + rest[min(1, len(rest))+i+1:]
	}
	return "unexpected character"
}

// parseNumbers reads a JSON array of numbers, rejecting strings, null, and
// numbers that overflow a float64.
func parseNumbers(file string, data []byte, fd *rawField) ([]float64, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(fd.raw, &elems); err != nil || bytes.TrimSpace(fd.raw)[0] != '[' {
		return nil, fd.errorf(file, data, "want an array of numbers, got %s", bytes.TrimSpace(fd.raw))
	}
	out := make([]float64, len(elems))
	for i, e := range elems {
		t := string(bytes.TrimSpace(e))
		sub := *fd
		sub.path = fmt.Sprintf("%s[%d]", fd.path, i)
		if idx := bytes.Index(fd.raw, e); idx >= 0 {
			sub.off = fd.base + int64(idx)
		}
		v, err := sub.number(file, data, t)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// number reads t, the field's JSON text, as a finite float64: a string,
// null or a number that overflows a float64 is an error naming the field.
func (fd *rawField) number(file string, data []byte, t string) (float64, error) {
	if t == "" || !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		return 0, fd.errorf(file, data, "not a number: %s", t)
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fd.errorf(file, data, "not a finite float64: %s", t)
	}
	return v, nil
}

func parseProvenance(file string, data []byte, fd *rawField, p *Provenance) error {
	if t := bytes.TrimSpace(fd.raw); len(t) == 0 || t[0] != '{' {
		return fd.errorf(file, data, "want a JSON object, got %s", t)
	}
	fields, err := objectFields(file, fd.raw, fd.base, data, fd.path+".")
	if err != nil {
		return err
	}
	dsts := map[string]any{"tool": &p.Tool, "run": &p.Run, "chain": &p.Chain, "stage": &p.Stage,
		"unfinished": &p.Unfinished, "method": &p.Method, "generation": &p.Generation,
		"date": &p.Date, "source": &p.Source, "note": &p.Note}
	for i := range fields {
		sf := &fields[i]
		if sf.key == "fitness" {
			v, err := sf.number(file, data, string(bytes.TrimSpace(sf.raw)))
			if err != nil {
				return err
			}
			p.Fitness = v
			continue
		}
		dst, ok := dsts[sf.key]
		if !ok {
			return sf.errorf(file, data, "unknown field")
		}
		if err := sf.decode(file, data, dst); err != nil {
			return err
		}
	}
	return nil
}

// fileName is the name a weight file without a "name" field goes by: the
// base name of its path without the extension ("weights/my.json" is "my"),
// "weights" when nothing is left.
func fileName(path string) string {
	base := filepath.Base(path)
	if n := strings.TrimSuffix(base, filepath.Ext(base)); n != "" && n != "." && n != string(filepath.Separator) {
		return n
	}
	return "weights"
}

// Weights returns the weight vector of f (a copy of its values).
func (f *WeightFile) Weights() Weights {
	return Weights{Schema: f.Schema, Genes: append([]float64(nil), f.Values...)}
}

// Validate checks f with the rules of ParseWeightFile, and that it has a
// name (ParseWeightFile gives one to a file without); errors name file
// (used as a label only) and the field.
func (f *WeightFile) Validate(file string) error {
	switch {
	case f.Name == "":
		return fmt.Errorf("%s: field %q: missing or empty", file, "name")
	case f.Schema.NumGenes() == 0:
		return fmt.Errorf("%s: field %q: unknown schema %q (want %s)", file, "schema", f.Schema, SchemaNames)
	case len(f.Values) != f.Schema.NumGenes():
		return fmt.Errorf("%s: field %q: %s schema needs %d values, got %d", file, "values", f.Schema, f.Schema.NumGenes(), len(f.Values))
	case math.IsNaN(f.Provenance.Fitness) || math.IsInf(f.Provenance.Fitness, 0):
		return fmt.Errorf("%s: field %q: not a finite number: %v", file, "provenance.fitness", f.Provenance.Fitness)
	}
	for i, v := range f.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: field %q (%s): not a finite number: %v", file, fmt.Sprintf("values[%d]", i), f.Schema.GeneNames()[i], v)
		}
	}
	return nil
}

// WriteWeightFile validates f and writes it to path as indented JSON,
// atomically: a temporary file in the same directory, synced, given mode
// 0644, renamed over path, then the directory synced (best effort). On error
// path is left as it was and the error names path.
func WriteWeightFile(path string, f *WeightFile) error {
	if err := f.Validate(path); err != nil {
		return err
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("engine: weight file %s: %w", path, err)
	}
	data = append(data, '\n')
	return fileio.WriteAtomic(path, data)
}
