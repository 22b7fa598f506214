// Package tournament runs the event around the sets: players, pairings
// (round robin by Berger tables, Swiss by the basic rules of FIDE's Dutch
// system), results, standings with tie-breaks, and the records an arbiter, a
// broadcast relay or a rating officer takes away (TRF-16, crosstable).
//
// It is the event's arithmetic only: it knows nothing of boards, MQTT or
// HTTP. cmd/tridboard's `event` command drives it from the sets' own states
// and journals every decision.
//
// Player numbers are the pairing numbers, from 1, in the order the players
// were entered (for round robin, the Berger table's numbers). A Game's Black
// is 0 for a bye.
package tournament
