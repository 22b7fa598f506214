// Package web is the display side of tridboard: a live web view of each
// board (a 3D view with three.js and a flat view of the levels side by
// side), a wall of every board, a transparent overlay for streaming, and
// broadcast feeds (the live record as /boards/<id>/game.pgn, JSON under
// /api/), all pushed to the browser with Server-Sent Events.
//
// Its data are the protocol's payloads (protocol.State, protocol.Move,
// protocol.Event and availability), never a transport: the daemon hands a
// Hub each change of its table typed (Hub.Snapshot, from table/websink: the
// payloads with the game's system and start position and the lifted
// piece's targets as the set's LEDs show them), and `tridboard view` feeds
// one from an MQTT follower (Hub.State, Move, Event). The Hub replays the
// moves with the rules (rules/systems) to know the position, the notation,
// the pieces on each cell, and, for a set followed from a broker, the
// targets of a lifted piece (targets.Lifted). Everything the pages need is
// embedded in the binary, three.js included (static/vendor/three, with
// its licence and VERSION): a hall without internet works.
package web
