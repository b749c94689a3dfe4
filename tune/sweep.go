package tune

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// SweepDir is the run directory of one seed of a sweep in dir.
func SweepDir(dir string, seed int64) string {
	return filepath.Join(dir, fmt.Sprintf("seed-%d", seed))
}

// DefaultRunDir is where a run (or, with sweep, a sweep) of cfg started
// at now goes when no directory is given:
// runs/<UTC yyyymmdd-hhmmss>-<method>[-sweep], a chain's methods joined
// by "-" (texel-spsa).
func DefaultRunDir(cfg Config, sweep bool, now time.Time) string {
	method := cfg.Method
	if stages, err := Stages(cfg); err == nil && len(stages) > 1 {
		var ms []string
		for _, c := range stages {
			ms = append(ms, c.Method)
		}
		method = strings.Join(ms, "-")
	}
	name := now.UTC().Format("20060102-150405") + "-" + method
	if sweep {
		name += "-sweep"
	}
	return filepath.Join("runs", name)
}

// SameSetting compares two resolved configs key by key, concurrency
// aside: nil when they set the same, else an error listing every key that
// differs ("match.pairs = 3, not 2"). A sweep and a chain check a
// member's config.toml with it before they resume it.
func SameSetting(a, b Config) error {
	fa, err := a.Flat()
	if err != nil {
		return err
	}
	fb, err := b.Flat()
	if err != nil {
		return err
	}
	var diff []string
	for k, v := range fa {
		if k != "concurrency" && fb[k] != v {
			diff = append(diff, fmt.Sprintf("%s = %s, not %s", k, fb[k], v))
		}
	}
	for k, v := range fb {
		if _, ok := fa[k]; !ok && k != "concurrency" {
			diff = append(diff, fmt.Sprintf("%s = %s, not set", k, v))
		}
	}
	if len(diff) == 0 {
		return nil
	}
	sort.Strings(diff)
	return errors.New(strings.Join(diff, "; "))
}
