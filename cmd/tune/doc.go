// Command tune runs roadtune's tuning job (package tune): an optimisation
// method (GA, Chen 2010 §4; PSO, §5; any registered method) over Connect6
// road weights, with fitness from self-play games, a checkpoint after every
// step, plots, a report and a verification match against a baseline.
//
//	tune                           run the embedded default config (configs/default.toml)
//	tune -config FILE.toml [flags] run a configured job; flags override the file
//	tune -resume RUNDIR            continue a stopped run from its checkpoint
//	tune -seeds 1,2,3 [-out DIR] …  the same config once per seed (a sweep), then a comparison;
//	                               the same command continues a stopped sweep
//	tune export RUNDIR [-step K] [-o FILE]
//	                               write the run's best vector (or step K's) as an engine weight file
//	tune compare -o BASE [-metric M] RUNDIR...
//	                               chart a metric (diversity, gene-std, gene:NAME, …) across runs
//	tune serve [-http ADDR] DIR... read-only web pages of runs (and arena -out directories) until Ctrl-C;
//	                               -http ADDR on a run serves its pages live while it runs
//	tune … -listen HOST:PORT       play the games on workers through an embedded NATS server
//	tune … -nats URL               … through an existing NATS server (package cluster)
//	tune worker -connect URL [-concurrency N] [-engine name=N cmd=PATH [dir=DIR]]...
//	                               play batches of games for such runs until Ctrl-C, and those
//	                               of runs whose [external] engine N is the same program as PATH
//
// Exit status: 0 done, 1 run failed, 2 bad usage, config or input, 3 an
// internal error (a panic: please report it with the command line), 130
// interrupted (the checkpoint is written; the message says how to resume).
package main
