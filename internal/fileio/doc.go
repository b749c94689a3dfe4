// Package fileio reads roadtune's input files with bounds, writes its
// output files atomically (WriteAtomic), and cleans up after interrupted
// writes. It imports only the standard library,
// so that every room, package engine included, can share it.
//
// Every input file is read only if it is a regular file (not a device such
// as /dev/zero, a pipe or a directory) and no larger than the cap of its
// kind (Kind); a file read line by line is also refused at its first line
// longer than MaxLine. The check is made before the file is read, so a
// huge file fails at once without being read. Errors are *Error values
// naming the file (and the line) and never quote the file's contents.
package fileio
