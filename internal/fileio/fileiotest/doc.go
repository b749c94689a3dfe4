// Package fileiotest gives tests the hostile input files every reader of
// roadtune must refuse at once: a device that never ends, a 100 MB file
// and a directory.
package fileiotest
