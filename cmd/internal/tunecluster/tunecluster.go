package tunecluster

import (
	"context"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/launch"
)

// Attach makes opts play through the cluster session s: its
// coordinator becomes the job's referee (the fitness matches) and remote
// (the verification ladder's and the Elo measurements' games).
func Attach(opts *tune.Options, s *cluster.Session) {
	opts.Referee, opts.Remote = s.Referee(), s.Referee()
}

// Hooks are the launch hooks (launch.Launch.Run) that play a launch's
// games through the cluster session s, with the options' Games event as
// the batch progress: Job starts the session in the run's directory with
// the run's game settings (tune.NewReferee of its config) and the run's seed
// choosing the batches the coordinator replays (Coordinator.VerifySeed);
// Group starts one
// session in a sweep's or chain's directory and sets Options.Bind to point
// the coordinator at each of its jobs. A nil session gives no hooks.
// Errors (of the hooks): tune.NewReferee's, and those of cluster.Session's
// Start and StartSweep.
func Hooks(ctx context.Context, s *cluster.Session) launch.Hooks {
	if s == nil {
		return launch.Hooks{}
	}
	return launch.Hooks{
		Job: func(job *tune.Job, opts *tune.Options) error {
			cfg := job.Config()
			ref, err := tune.NewReferee(cfg)
			if err != nil {
				return err
			}
			s.Referee().VerifySeed = uint64(cfg.Seed)
			return s.Start(ctx, job.Dir(), ref, cfg.Concurrency, opts.Events.Games)
		},
		Group: func(dir string, first tune.Config, opts *tune.Options) error {
			if err := s.StartSweep(ctx, dir, first.Concurrency); err != nil {
				return err
			}
			games := opts.Events.Games
			opts.Bind = func(j *tune.Job) error {
				ref, err := tune.NewReferee(j.Config())
				if err != nil {
					return err
				}
				s.Referee().VerifySeed = uint64(j.Config().Seed)
				return s.Bind(j.Dir(), ref, games)
			}
			return nil
		},
	}
}
