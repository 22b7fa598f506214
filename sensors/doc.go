// Package sensors reads the reed switches of a tridboard set.
//
// A Wiring (data, usually from the configuration file) says which cell is
// wired to which pin of which MCP23017 port expander, in Direct mode (one
// switch per pin) or Matrix mode (a diode matrix, rows on GPA, columns on
// GPB), optionally behind a PCA9548 multiplexer. Hardware.md's builds of each
// system's set are presets in package sets (the systems' kits), made of
// the helpers here (MatrixWiringFor, WithButtons, Renamed); Validate
// checks a wiring against the cells of a game system, ForCells reads it
// as another system's that names the same switches (rules/systems).
//
// A Scanner reads every expander over a periph i2c.Bus once per scan (one
// burst read of GPIOA+GPIOB per Direct expander, one write+read per Matrix
// row), debounces each cell and reports timestamped snapshots (closed and
// unknown cells as rules.CellSets over Opts.Cells) and per-cell events.
// Scan is a step function driven by the caller's clock, so tests and
// simulations run in fake time; Run drives it in real time.
//
// A failed transaction never reads as empty: the expander's cells become
// Unknown, the expander is retried with capped exponential backoff and
// configured again (and its configuration read back) before its readings
// count, and the rest of the board keeps scanning. Each expander's
// configuration is also read back periodically, which catches a chip that
// reset without missing a transaction.
package sensors
