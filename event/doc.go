// Package event runs a tournament from the sets: it pairs rounds (package
// tournament), sends every set its game as a new_game command, takes the
// results back from the sets' own states, lets the arbiter decide what the
// sets cannot (a forfeit, an illegal-move claim, a replayed game), and
// serves the event: its JSON API, the arbiter's page, standings, the round's
// PGN in the layout broadcast relays poll, TRF-16 and a crosstable.
//
// Every decision (a pairing, a round's start, a result, the arbiter's
// overrides) is journaled with its time and reason before it takes effect,
// fsync'd, so that killing the event loses nothing: it replays its journal
// when it comes back and picks the sets' results up again from their
// retained states.
//
// The sets are reached through a Link (MQTT in the daemon, a fake in tests):
// data flows one way, sets -> Observe -> the event, and commands go out
// through the Link alone.
package event
