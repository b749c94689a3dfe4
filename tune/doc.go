// Package tune is roadtune's tuning job as a library: a Config (TOML, every
// limit checked by the room that owns it), a registry of optimisation
// methods (optimize.Spec: "ga", "pso", and any method a program registers),
// the run directory with its checkpoint, Start, Resume and Run of a job
// (its games played by package referee, NewReferee), the call of the
// verification ladder of the tuned vector (a match against every
// configured opponent at every depth, summed up in a verdict line), the
// report and plots, and the state of a run directory at its last
// checkpoint (ReadRun).
//
// Its rooms sit above it: package tune/runs reads runs from their
// directories (Open, Compare, CompareRuns, LearningCurves, Export) on
// top of ReadRun, package tune/chain runs a chain of stages (Stages
// resolves one, ReadChain reads one), and package tune/launch is what the tune command
// does with its flags (a run, a sweep over seeds, a chain; hooks for
// live pages and a cluster session, which cmd/internal/tunecluster attaches
// for the command, so the library links no NATS). The command's flags
// stay in the command: the library takes values (Override, Resumable
// for the keys a resumed run may change). Below it, package tune/ladder
// plays the verification ladder and the Elo measured during a run
// (opponents resolved, matches played, rungs, verdicts, charts) from
// plain values and the run's vectors (ladder.Run, ladder.Engine),
// package tune/report builds report.html from the report.md a job
// writes, package tune/param the [[param]] tables (their checks, how they
// extend the method's problem, the tuned settings' file), and package
// tune/budget holds a budget by the clock's figures
// (its plan, calibration and clock, in seconds).
//
// A job writes, in its run directory: config.toml (the resolved config,
// first), checkpoint.json (after config.toml, then after every step),
// generations.jsonl (one optimize.Record per step, appended), best.json (the
// best vector as an engine weight file), ladder.json (the verification
// ladder, one Rung per opponent and depth), validation.json (its first
// rung's match in tournament.Summary's shape, as arena's summary.json),
// report.md, plots/ and games/. Every file is written atomically (temporary file and
// rename) and the checkpoint last, so a stop at any moment — Ctrl-C,
// SIGTERM, kill -9, a full disk — loses at most the step in flight, and
// Resume continues to exactly the result of an uninterrupted run: the same
// records (wall times aside), the same best vector, the same verification.
//
// Data flows one way: config → method (optimize) → matches (referee.VectorReferee)
// → games (tournament, engine) → outcomes back up → records on disk.
package tune
