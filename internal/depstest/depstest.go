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
