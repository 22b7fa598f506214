// Package sim is a simulated tridboard set, for tests and benchmarks that run
// without hardware and in simulated time.
//
// Bus implements periph's i2c.Bus and delivers each transaction to devices
// emulated at register level: MCP23017 port expanders, PCA9548 multiplexers
// and HT16K33 LED drivers. Every transaction is accounted in bits on the wire
// and in wire time at the bus clock (Bus.Stats).
//
// Set is the physical set of any game system, made from its cell list
// (NewSetFor; NewSet is the ST3D set): which squares hold a piece and which
// sockets (ST3D pins, First Contact platform positions, up and inverted)
// hold a board or platform, which carries the squares named after it. It
// drives the expanders' input pins through the same sensors.Wiring the
// scanner reads, so a closed reed switch pulls its line low exactly as the
// wiring table says. TimeSource is the simulated time that contact bounce and
// the tests share.
//
// ForSystem assembles a whole board (bus, chips, set, clock) for a system
// and a wiring, in the system's start position; New does it for the system
// whose cells the wiring covers (SystemOf), so sim.New of a Millennium or a
// First Contact wiring (a preset of package sets) builds that set. The
// presets themselves, the reference and matrix boards and the set each
// system is played on are its kit's, in package sets.
//
// A script drives the set by hand actions (Actions documents the language,
// ParseAction reads it, Set.Do carries it out), and Gestures gives the
// actions that play a rules move, of any kind of any system.
//
// Faults are injected per chip: a chip can NACK the next transactions
// (FailNext), answer with short reads (ShortReadNext), vanish (Vanish) and
// come back in its power-on state (Return), or silently reset (PowerCycle).
package sim
