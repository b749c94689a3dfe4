// This file holds the resume fingerprint: a config flattened to
// "table.key" → value (Config.Flat), its hash without the keys a resume may
// change (fingerprint), and the keys that differ between two (diffFlat).

package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/BurntSushi/toml"
)

// Flat returns the resolved config as "table.key" → value (JSON text):
// what a checkpoint records to tell a changed config.toml by key.
func (c *Config) Flat() (map[string]string, error) {
	data, err := c.Encode()
	if err != nil {
		return nil, err
	}
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

// fingerprint is a SHA-256 of the flat config without the keys that may
// change on resume (concurrency).
func fingerprint(flat map[string]string) string {
	keys := make([]string, 0, len(flat))
	for k := range flat {
		if !resumable[k] {
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

// resumable are the keys a resumed run may change: results do not depend
// on them.
var resumable = map[string]bool{"concurrency": true}

// Resumable reports whether a resumed run may change the config key key
// (results do not depend on it): "concurrency".
func Resumable(key string) bool { return resumable[key] }

// diffFlat lists the keys whose values differ between two flat configs,
// "key: old → new", sorted; keys a resume may change are left out.
func diffFlat(old, cur map[string]string) []string {
	var out []string
	for k, v := range old {
		if resumable[k] {
			continue
		}
		if w, ok := cur[k]; !ok {
			out = append(out, fmt.Sprintf("%s: %s → (missing)", k, v))
		} else if w != v {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, v, w))
		}
	}
	for k, w := range cur {
		if _, ok := old[k]; !ok && !resumable[k] {
			out = append(out, fmt.Sprintf("%s: (missing) → %s", k, w))
		}
	}
	sort.Strings(out)
	return out
}
