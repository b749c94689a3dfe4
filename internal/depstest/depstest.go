// Package depstest checks the import rules of roadtune's rooms: its test
// TestRooms holds the room table (which room may link which) and checks
// every package of the module against it with one go list.
package depstest

import (
	"strings"
)

// Module is roadtune's import path prefix, with its trailing slash.
const Module = "github.com/roadtune/roadtune/"

// Under reports whether pkg is root or one of its subpackages.
func Under(pkg, root string) bool {
	return pkg == root || strings.HasPrefix(pkg, root+"/")
}
