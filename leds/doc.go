// Package leds lights the LEDs of the set: what to show (a View of cell sets,
// composed into a Frame at a given time) and the drivers that show it
// (HT16K33 over I²C, APA102 over SPI, and an in-memory driver).
//
// # What the LEDs say
//
// A View names the cells to light for each Signal: the legal targets and
// captures of a lifted piece, the legal pins of a lifted attack board, the
// last move, a king in check, the end of the game, the cells to fix after a
// mismatch, and a move to execute that came from elsewhere (RemoteFrom,
// RemoteTo). ViewFor derives the targets from a rules.Position through the
// rules interface only, so every game system gets them.
//
// Each cell shows one signal, the one of highest priority (Fix first, see
// Signal). Single-colour builds tell signals apart by blink patterns, RGB
// builds by colour (Style, MonoStyle, RGBStyle). Patterns restart when the
// view changes, and every pattern starts lit, so a lift is shown at once.
// The target signals (targets, captures, pins, check) can be switched off for tournament
// play (View.NoTargets); the last move, remote moves, the end of the game and
// the cells to fix stay.
//
// # Where each cell's LED is
//
// A Mapping (YAML) says which driver and which LED index lights each cell;
// Mapping.Layout checks it against the game system's cell list and refuses
// unknown cells, missing cells, shared LEDs and indexes beyond the driver.
// ReferenceMapping is the reference build: one HT16K33 at 0x71, LED index =
// cell index (COM0 = W, COM1 = N, COM2 = B, COM3..5 = the attack-board
// squares, COM6 rows 0..11 = the pins).
//
// # Writing
//
// A Writer owns a Driver in its own goroutine. Show hands it a View without
// blocking (the latest wins); it composes, writes only frames that changed,
// recomposes while something blinks, and retries a failing driver with
// backoff while counting errors (Stats). A failing LED driver never holds up
// scanning or recognition.
package leds
