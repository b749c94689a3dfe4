// Package tomlkeys reads a TOML document by its dotted keys
// ("ga.population", "param[2].min"): the line that sets a key (Line), the
// line, key and message of a decoder's error (Parse), the document
// flattened to key → value (Flatten), the keys whose values differ between
// two flat documents (Diff) and a hash of one (Fingerprint). It is a
// ground-floor helper over BurntSushi/toml: it knows documents, not what
// their keys mean.
package tomlkeys
