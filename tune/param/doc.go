// Package param holds the [[param]] and [external] tables of a tuning
// config: the search or time settings of an engine (engine.Params for the
// in-process engine, an external engine's own options) that a run tunes
// beside the road-weight genes or instead of them, and the external
// engine whose options they are. It checks a table's own fields (Check,
// CheckStarts, External.Check), fits the tables to the options an
// external engine reports and checks it takes their ends (External.Fit,
// External.CheckValues), extends the method's optimize.Problem with the
// settings (Extend), gives their search coordinates (Space) and SPSA's
// gains by name (SPSAGains), describes them (Text, External.Describe,
// External.Search, External.Tuned), and defines the file of the tuned
// settings a run writes (Best).
//
// It sits below the tuning job: it knows tables and problems, not a
// Config or a Job. Errors are *KeyError, naming the table's key
// ("param[2].min"), which the job turns into its config errors.
package param
