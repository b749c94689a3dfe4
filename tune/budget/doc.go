// Package budget is the tuning job's budget by the clock (a config's
// budget = "8h", tune's -hours), the room below the job that knows time
// and nothing of configs: what a budgeted run's checkpoint records of it
// (State: the budget, the calibration, the plan, the measured steps and
// the safety valve's stop), what a calibration measured (Calibration,
// Sample, SampleLimits), the search for the most steps whose plan ends
// within the budget (Fit, TooShort), the clock of a running job (Clock,
// Timed: the run's own elapsed time, each step's time in and out of the
// referee) and a chain's split of one budget among its stages (Chain,
// SplitCalibration). Durations are float seconds as the checkpoint
// stores them; Text and Duration turn them into words and
// time.Duration.
//
// The job (package tune) plays the calibration's games, makes each plan
// from the method's forecast and its config, and asks the safety valve
// after every step; the figures here are this machine's and change as
// the run goes on, which is why they live in checkpoint.json and never
// in the run's config.toml.
package budget
