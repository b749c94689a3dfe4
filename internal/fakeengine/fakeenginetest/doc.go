// Package fakeenginetest builds the fake protocol engine (the program
// internal/fakeengine of this module) for the tests of any package that
// drives external engines: Build returns the path of the program, built
// once per test binary; Main, called from a TestMain, removes it when the
// tests end. It imports the standard library only.
package fakeenginetest
