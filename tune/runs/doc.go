// Package runs reads tuning runs from their directories, finished or
// not, for the commands and pages above the job: Open reads a run (a
// chain's directory: its last stage begun) on top of ReadSnapshot (a run
// directory's checkpointed state, tune.ReadRun, and its place in a chain),
// with what it has done of what (Unfinished), its metrics by step
// (Series) and its best vector after any step as an engine weight file
// (WeightFile, Export, ExportTo: `tune export`). Compare draws a metric
// of several runs by step; CompareRuns and RunComparison put their
// verification ladders side by side (`tune compare`, WriteCompare);
// LearningCurves draws the Elo measured during tuning by games and wall
// time, the mean over a sweep's seeds with their spread. Group lists the
// members of a sweep or a chain. Reading writes nothing, so every reader
// is safe while a run goes on.
package runs
