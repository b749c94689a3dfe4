package tune_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/runs"
)

// A tuning run driven from Go: start a small GA from a config, run three
// generations, read the best vector, then finish the job (verification and
// report) and read the run back.
func Example() {
	cfg, err := tune.Parse("example.toml", []byte(`
method = "ga"
schema = "symmetric"
seed = 3
[engine]
depth = 1
width = 4
[ga]
population = 6
groups = 2
generations = 5
[validation]
opponent = "zhou2015"
pairs = 2
`))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "roadtune-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	job, err := tune.Start(cfg, filepath.Join(dir, "run"), tune.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := job.Steps(ctx, 3); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("after %d generations the best vector has %d genes (%v)\n", job.Status().Steps, len(job.Best()), cfg.GeneNames())
	if err := job.Run(ctx); err != nil { // the last two generations, the verification, the report
		log.Fatal(err)
	}
	run, err := runs.ReadSnapshot(job.Dir())
	if err != nil {
		log.Fatal(err)
	}
	best, err := run.WeightFile(-1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d generations recorded, best.json from generation %d\n", run.Phase, len(run.Records), best.Provenance.Generation)
	// Output:
	// after 3 generations the best vector has 5 genes ([S1 S2 S3 S4 S5])
	// done: 5 generations recorded, best.json from generation 4
}
