// Package cmdline is the one voice of roadtune's commands (tune, arena,
// engine) for a bad command line: a flag's value ("flag -depth: must be at
// least 1, not -3", the limit and its words from the room that owns it), a
// flag that does not exist ("flag -dpeth: no such flag (did you mean
// -depth?); tune -h lists the flags"), and the "did you mean" hints the
// commands and the tune config give for a misspelled name; and the layout
// of their -h text (PrintDefaults, Wrap: no line wider than HelpWidth, 100
// characters). Each command
// prefixes the message with its name and exits with status 2. It links
// only the standard library, so every room may use it (configs suggests a
// baseline's name with it).
package cmdline
