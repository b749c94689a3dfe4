package referee

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// maxEngineName bounds an engine's name (the cluster puts it into
// subjects and consumer names).
const maxEngineName = 64

// SubjectToken is name with every character but ASCII letters, digits,
// '-' and '_' made '_': a token a message queue's subject may hold.
func SubjectToken(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

// CheckEngineName reports what makes name unusable as an engine's name:
// empty, longer than 64 characters, or holding anything but ASCII
// letters, digits, '-' and '_' (the cluster names its queues' subjects by it).
func CheckEngineName(name string) error {
	switch {
	case name == "":
		return errors.New("an engine's name is empty")
	case len(name) > maxEngineName:
		return fmt.Errorf("engine name %q: longer than %d characters", name, maxEngineName)
	case SubjectToken(name) != name:
		return fmt.Errorf("engine name %q: only letters, digits, '-' and '_' (e.g. %q)", name, SubjectToken(name))
	}
	return nil
}

// DefaultEngineName is the name of an engine whose program is cmd when
// none is given: cmd's base name with every character but letters,
// digits, '-' and '_' made '_' ("./gameEngine.exe" → "gameEngine_exe").
func DefaultEngineName(cmd string) string {
	name := SubjectToken(filepath.Base(cmd))
	if len(name) > maxEngineName {
		name = name[:maxEngineName]
	}
	return name
}
