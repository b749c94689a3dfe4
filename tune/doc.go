// Package tune is roadtune's tuning job as a library: a Config (TOML, every
// limit checked by the room that owns it), a registry of optimisation
// methods (optimize.Spec: "ga", "pso", and any method a program registers),
// the run directory with its checkpoint, Start, Resume and Run of a job
// (its games played by package referee, NewReferee), the verification ladder of the tuned vector (a match against every configured
// opponent at every depth, summed up in a verdict line), the report and
// plots, and readers of finished runs (Open).
//
// A Launch is what the tune command does with its flags, for any program
// to do the same: NewLaunch resolves a config into one run, a sweep over
// seeds (Sweep) or a chain of stages (Chain), ResumeLaunch a stopped run
// or chain, and Launch.Run plays it with hooks for live pages and a
// cluster session (internal/tunecluster attaches one for the command, so
// the library links no NATS; the live pages' hooks are joined with
// LaunchHooks.Then); its LaunchResult names the runs, best vector and
// report, and Launch.Summary tells how it ended. The command's flags stay
// in the command: the library takes values (Override, ParseSeeds for a
// seed list, Resumable for the keys a resumed run may change); showing
// its progress is the command's own work (cmd/tune). ExportTo and
// WriteCompare are `tune export` and `tune compare`.
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
