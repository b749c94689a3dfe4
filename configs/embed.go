package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed weights/*.json
var weightFiles embed.FS

// Weights returns the bytes of the embedded weight file weights/<name>.json
// (name without ".json", e.g. "zhou2015"); parse them with
// engine.ParseWeightFile. An unknown name is an error listing the known names.
func Weights(name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("configs: weight file name %q: want one of %s", name, strings.Join(WeightNames(), ", "))
	}
	data, err := weightFiles.ReadFile("weights/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("configs: no embedded weight file %q: want one of %s", name, strings.Join(WeightNames(), ", "))
	}
	return data, nil
}

// WeightNames lists the embedded weight files by name (without ".json"),
// sorted.
func WeightNames() []string { return embeddedNames(weightFiles, "weights/", ".json") }

// embeddedNames lists the files dir*ext of fsys by name (dir and ext cut
// off), sorted.
func embeddedNames(fsys embed.FS, dir, ext string) []string {
	matches, _ := fs.Glob(fsys, dir+"*"+ext) // the pattern is valid
	names := make([]string, 0, len(matches))
	for _, m := range matches {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(m, dir), ext))
	}
	sort.Strings(names)
	return names
}

//go:embed *.toml
var configFiles embed.FS

// Config returns the bytes of the embedded tuning config <name>.toml (name
// without ".toml", e.g. "default", "smoke", "chen2010-ga"); parse them with
// cmd/tune's config loader. An unknown name is an error listing the known
// names.
func Config(name string) ([]byte, error) {
	data, err := configFiles.ReadFile(name + ".toml")
	if err != nil || name == "" || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("configs: no embedded config %q: want one of %s", name, strings.Join(ConfigNames(), ", "))
	}
	return data, nil
}

// ConfigNames lists the embedded tuning configs by name (without ".toml"),
// sorted.
func ConfigNames() []string { return embeddedNames(configFiles, "", ".toml") }
