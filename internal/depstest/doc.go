// Package depstest checks the import rules of roadtune's rooms: its test
// TestRooms holds the room table (which room may link which) and checks
// every package of the module against it with one go list.
package depstest
