// Package tournament runs the event around the sets: players, pairings
// (round robin by Berger tables, Swiss by FIDE's Dutch system, C.04.3 as in
// force from 1 February 2026, behind the PairingSystem interface), results,
// standings with tie-breaks, and the records an arbiter, a broadcast relay
// or a rating officer takes away (TRF-2026, crosstable).
//
// It is the event's arithmetic only: it knows nothing of boards, MQTT or
// HTTP. cmd/tridboard's `event` command drives it from the sets' own states
// and journals every decision.
//
// Player numbers count from 1 in the order the players were entered (for
// round robin, the Berger table's numbers); a Swiss's pairing numbers are
// those numbers when Opts.ByNumber (a TRF's start ranks), else the initial
// ranking's (PairingNumbers), and a TRF written numbers the players by
// them. A Game's Black is 0 for a bye.
package tournament
