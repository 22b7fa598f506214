// Package event runs a tournament from the sets, and the festival around
// it: it pairs rounds (package tournament), sends every set its game as a
// new_game command, takes the results back from the sets' own states, lets
// the arbiter decide what the sets cannot (a forfeit, an illegal-move
// claim, a replayed game, a game on a table without sensors), and serves
// the event: its JSON API, the arbiter's page, the desk, the hall's screen,
// standings, the round's PGN in the layout broadcast relays poll, TRF-16, a
// crosstable, printable A4 pages and a static results site.
//
// A round may have more games than sets: games go to the sets in board
// order, then to the tables (boards without sensors: the arbiter enters
// the result), and the rest wait; a board freed by a result takes the first
// waiting game. Sets can be added and removed while the event runs.
//
// The desk registers players (festival id, category), checks them in,
// records the byes they ask for and the tournament's settings and prizes.
// On the exhibition days anyone plays at a free set (the desk or the set's
// walk-up page names the players); those games are recorded and rated by
// Glicko-2 (package event/glicko), and the rating can seed the tournament.
//
// Every decision (a pairing, a round's start and where its games went, a
// result, the arbiter's and the desk's decisions) and every move and clock
// reading a set showed is journaled with its time and reason before it
// takes effect, fsync'd, so that killing the event loses nothing: it replays
// its journal when it comes back and picks up from the sets' retained
// states what happened meanwhile. A record damaged in the middle of the
// journal is cut out and reported; the rest is kept.
//
// A set's state is believed only when the set's enrolled key signed it
// (the Link checks; the desk enrols, re-enrols and forgets the sets' keys,
// keys.go), its moves replay by the rules core, its game is the one the set
// answered the event's new_game with, and its result follows from the
// position or from a resignation, agreement, flag the clock shows or an
// arbiter's decision (verify.go).
//
// The sets are reached through a Link (MQTT in the daemon, a fake in tests):
// data flows one way, sets -> Observe -> the event, and commands go out
// through the Link alone.
package event
