package launch_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/launch"
)

// What the tune command does with -seeds: a Launch resolves the config
// into a sweep (one run per seed), runs it, and compares the runs'
// verification ladders.
func Example() {
	cfg, err := tune.Parse("sweep.toml", []byte(`
method = "ga"
[engine]
depth = 1
width = 4
[ga]
population = 4
groups = 2
generations = 2
[validation]
opponent = "zhou2015"
pairs = 1
`))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "roadtune-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	l, err := launch.New(cfg, filepath.Join(dir, "sweep"), []int64{1, 2}, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	out, err := l.Run(context.Background(), tune.Options{}, launch.Hooks{})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range out.Comparison.Runs {
		fmt.Printf("%s: seed %d, %d generations\n", r.Name, r.Seed, r.Steps)
	}
	_, err = os.Stat(filepath.Join(l.Dir, launch.FileCompare+".md"))
	fmt.Println("compare.md written:", err == nil)
	// Output:
	// sweep/seed-1: seed 1, 2 generations
	// sweep/seed-2: seed 2, 2 generations
	// compare.md written: true
}
