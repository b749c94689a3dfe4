package configs

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/suggest"
	"github.com/roadtune/roadtune/tournament"
)

// openingFiles are the shipped opening suites: one opening per line in
// protocol notation, '#' comments (tournament.ReadOpenings), each headed by
// comments saying how it was made.
//
//go:embed openings/*.txt
var openingFiles embed.FS

// Openings returns the bytes of the embedded opening suite
// openings/<name>.txt (name without ".txt", e.g. "balanced": the suite
// `arena openings` cut from the generated radius-5 suite by colour bias);
// parse them with tournament.ReadOpenings. An unknown name is an error
// listing the known names.
func Openings(name string) ([]byte, error) {
	if name != "" && !strings.ContainsAny(name, `/\`) {
		if data, err := openingFiles.ReadFile("openings/" + name + ".txt"); err == nil {
			return data, nil
		}
	}
	return nil, fmt.Errorf("configs: no embedded opening suite %q: want one of %s", name, strings.Join(OpeningNames(), ", "))
}

// OpeningNames lists the embedded opening suites by name (without ".txt"),
// sorted.
func OpeningNames() []string { return embeddedNames(openingFiles, "openings/", ".txt") }

// LoadOpenings returns the opening suite nameOrPath names: an embedded
// suite (OpeningNames, e.g. "balanced") or an opening file's path (one
// opening per line in protocol notation, '#' comments). Errors name the
// file and line (tournament.ReadOpenings), or list the embedded names; a
// path that is not a regular file of at most 16 MiB is refused before it is
// read (tournament.LoadOpenings). All are *fileio.Error values (bad input).
func LoadOpenings(nameOrPath string) ([]tournament.Opening, error) {
	if slices.Contains(OpeningNames(), nameOrPath) {
		data, err := Openings(nameOrPath)
		if err != nil {
			return nil, err
		}
		return tournament.ReadOpenings("configs/openings/"+nameOrPath+".txt", bytes.NewReader(data))
	}
	if _, err := os.Stat(nameOrPath); nameOrPath == "" || err != nil {
		return nil, fileio.Bad(fmt.Errorf("openings %q: not an embedded suite and not a readable file%s; the suites are %s", nameOrPath, suggest.DidYouMean(nameOrPath, OpeningNames()), strings.Join(OpeningNames(), ", ")))
	}
	return tournament.LoadOpenings(nameOrPath)
}
