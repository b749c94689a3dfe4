// This file holds the resume fingerprint: a config flattened to
// "table.key" → value (Config.Flat), its hash without the keys a resume may
// change (fingerprint), and the keys that differ between two (diffFlat).

package tune

import "github.com/roadtune/roadtune/internal/tomlkeys"

// Flat returns the resolved config as "table.key" → value (JSON text,
// tomlkeys.Flatten of Encode): what a checkpoint records to tell a changed
// config.toml by key.
func (c *Config) Flat() (map[string]string, error) {
	data, err := c.Encode()
	if err != nil {
		return nil, err
	}
	return tomlkeys.Flatten(data)
}

// fingerprint is a SHA-256 of the flat config without the keys that may
// change on resume (concurrency).
func fingerprint(flat map[string]string) string { return tomlkeys.Fingerprint(flat, Resumable) }

// resumable are the keys a resumed run may change: results do not depend
// on them.
var resumable = map[string]bool{"concurrency": true}

// Resumable reports whether a resumed run may change the config key key
// (results do not depend on it): "concurrency".
func Resumable(key string) bool { return resumable[key] }

// diffFlat lists the keys whose values differ between two flat configs,
// "key: old → new", sorted; keys a resume may change are left out.
func diffFlat(old, cur map[string]string) []string { return tomlkeys.Diff(old, cur, Resumable) }
