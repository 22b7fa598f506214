// Package sim is a simulated tridboard set, for tests and benchmarks that run
// without hardware and in simulated time.
//
// Bus implements periph's i2c.Bus and delivers each transaction to devices
// emulated at register level: MCP23017 port expanders, PCA9548 multiplexers
// and HT16K33 LED drivers. Every transaction is accounted in bits on the wire
// and in wire time at the bus clock (Bus.Stats).
//
// Set is the physical set: which squares hold a piece and which pins hold an
// attack board. It drives the expanders' input pins through the same
// sensors.Wiring the scanner reads, so a closed reed switch pulls its line
// low exactly as the wiring table says. Clock is the simulated time that
// contact bounce and the tests share.
//
// NewReference and NewMatrix assemble whole boards (bus, chips, set, clock)
// in the ST3D start position.
//
// Faults are injected per chip: a chip can NACK the next transactions
// (FailNext), answer with short reads (ShortReadNext), vanish (Vanish) and
// come back in its power-on state (Return), or silently reset (PowerCycle).
package sim
