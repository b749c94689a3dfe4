package tomlkeys

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Line finds the line (from 1) where a dotted key ("ga.population") is set
// in a TOML document, or 0. It follows [table] headers and dotted keys; it
// does not need to understand values. The tables of an array ([[param]])
// are numbered from 1: "param[2].min" is min in the second, "param.min"
// the first one that sets it; a table's own key ("param[2]", "ga") is the
// line of its header.
func Line(data []byte, key string) int {
	table, plain := "", ""
	arrays := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		if strings.HasPrefix(s, "[") {
			h := s
			if i := strings.Index(h, "#"); i >= 0 {
				h = h[:i]
			}
			table = strings.Trim(strings.TrimSpace(h), "[] ")
			plain = table
			if strings.HasPrefix(s, "[[") {
				arrays[table]++
				table = fmt.Sprintf("%s[%d]", table, arrays[table])
			}
			if table == key || plain == key {
				return line
			}
			continue
		}
		eq := strings.Index(s, "=")
		if eq < 0 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(s[:eq]), `"`)
		full, short := k, k
		if table != "" {
			full, short = table+"."+k, plain+"."+k
		}
		if full == key || short == key {
			return line
		}
	}
	return 0
}

// Parse reads a BurntSushi/toml error: the line and key where the decoder
// gives them (0 and "" where it does not) and its message without them.
func Parse(err error) (line int, key, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Position.Line, pe.LastKey, pe.Message
	}
	// Type mismatches read "toml: line N (last key "k"): msg".
	msg = err.Error()
	if n, _ := fmt.Sscanf(msg, "toml: line %d (last key %q):", &line, &key); n == 2 {
		if i := strings.Index(msg, "):"); i >= 0 {
			msg = strings.TrimSpace(msg[i+2:])
		}
	} else if n == 1 {
		msg = strings.TrimPrefix(msg, "toml: ")
	}
	return line, key, msg
}

// Flatten decodes a TOML document to "table.key" → value, each value as
// JSON text: what tells two documents apart key by key. Errors: the
// decoder's.
func Flatten(data []byte) (map[string]string, error) {
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, v map[string]any)
	walk = func(prefix string, v map[string]any) {
		for k, x := range v {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			if sub, ok := x.(map[string]any); ok {
				walk(key, sub)
				continue
			}
			j, _ := json.Marshal(x)
			out[key] = string(j)
		}
	}
	walk("", m)
	return out, nil
}

// Fingerprint is a SHA-256 (64 hex digits) of a flat document without the
// keys skip reports: the same for documents that differ only in them.
func Fingerprint(flat map[string]string, skip func(key string) bool) string {
	keys := make([]string, 0, len(flat))
	for k := range flat {
		if !skip(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, flat[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Diff lists the keys whose values differ between two flat documents,
// "key: old → new" ("(missing)" for a key one lacks), sorted; keys skip
// reports are left out.
func Diff(old, cur map[string]string, skip func(key string) bool) []string {
	var out []string
	for k, v := range old {
		if skip(k) {
			continue
		}
		if w, ok := cur[k]; !ok {
			out = append(out, fmt.Sprintf("%s: %s → (missing)", k, v))
		} else if w != v {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, v, w))
		}
	}
	for k, w := range cur {
		if _, ok := old[k]; !ok && !skip(k) {
			out = append(out, fmt.Sprintf("%s: (missing) → %s", k, w))
		}
	}
	sort.Strings(out)
	return out
}
