// Package configs holds roadtune's built-in configuration files, embedded in
// the binaries: the tuning configs *.toml (default.toml is what
// `go run ./cmd/tune` runs) and the baseline weight files of weights/*.json (Zhou 2015,
// Qi 2018; provenance inside each file). LoadWeights takes a baseline's name
// or a weight file's path, as the commands' weight arguments do.
package configs
