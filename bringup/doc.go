// Package bringup helps a builder from a box of parts to a playing set.
//
// Doctor checks a set: which expanders, multiplexers and LED drivers
// answer on the bus and which do not, what answers that is not configured,
// whether the bus needs a slower clock, and every switch against the
// position the set should show (stuck switches, missing pieces, shorts).
// It says, one line a problem, what is wrong and what to try.
//
// Learn maps a set's switches with the LEDs' help: it lights one cell at a
// time, the builder puts a piece (or a board) there, and it records which
// expander pin closed, catching two cells on one pin; a second pass checks
// the wiring it learned. Its result is a sensors.Wiring for the
// configuration file.
//
// Both work over periph's i2c.Bus, so they run on the simulated set (its
// faults injected) exactly as on a Raspberry Pi; time is injected.
package bringup
