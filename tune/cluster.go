package tune

import (
	"context"

	"github.com/roadtune/roadtune/cluster"
)

// The hooks that play a launch through a cluster session live here, not in
// package cluster: they need the job, its config and NewReferee, and the
// cluster sits below tune (it knows referees and games, never runs).

// AttachCluster makes opts play through the cluster session s: its
// coordinator becomes the job's referee (the fitness matches) and remote
// (the verification ladder's and the Elo measurements' games).
func AttachCluster(opts *Options, s *cluster.Session) {
	opts.Referee, opts.Remote = s.Referee(), s.Referee()
}

// ClusterHooks are the launch hooks (Launch.Run) that play a launch's
// games through the cluster session s, with the options' Games event as
// the batch progress: Job starts the session in the run's directory with
// the run's game settings (NewReferee of its config) and the run's seed
// choosing the batches the coordinator replays (Coordinator.VerifySeed);
// Group starts one
// session in a sweep's or chain's directory and sets Options.Bind to point
// the coordinator at each of its jobs. A nil session gives no hooks.
// Errors (of the hooks): NewReferee's, and those of cluster.Session's
// Start and StartSweep.
func ClusterHooks(ctx context.Context, s *cluster.Session) LaunchHooks {
	if s == nil {
		return LaunchHooks{}
	}
	return LaunchHooks{
		Job: func(job *Job, opts *Options) error {
			cfg := job.Config()
			ref, err := NewReferee(cfg)
			if err != nil {
				return err
			}
			s.Referee().VerifySeed = uint64(cfg.Seed)
			return s.Start(ctx, job.Dir(), ref, cfg.Concurrency, opts.Events.Games)
		},
		Group: func(dir string, first Config, opts *Options) error {
			if err := s.StartSweep(ctx, dir, first.Concurrency); err != nil {
				return err
			}
			games := opts.Events.Games
			opts.Bind = func(j *Job) error {
				ref, err := NewReferee(j.Config())
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
