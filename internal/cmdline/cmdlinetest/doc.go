// Package cmdlinetest holds the table of mistakes every roadtune command
// must answer in one voice (package cmdline): the same bad depth, the same
// misspelt flag, the same bad weight or opening file, the same missing
// directory given to tune, arena and engine, each with its exact message
// on standard error and exit status 2. The tests of cmd/tune, cmd/arena
// and cmd/engine run it through their in-process entry points (Run); Help
// checks their -h text the same way (every line within cmdline.HelpWidth),
// and HandWeights writes the least weight file each must take.
package cmdlinetest
