// Package web is the display side of tridboard: a live web view of each
// board (a 3D view with three.js and a flat view of the levels side by
// side), a wall of every board, a transparent overlay for streaming, and
// broadcast feeds (the live record as /boards/<id>/game.pgn, JSON under
// /api/), all pushed to the browser with Server-Sent Events.
//
// Its data comes only from the MQTT payloads (mqtt.State, mqtt.Move,
// mqtt.Event and availability), so the same code serves the daemon, which
// feeds a Hub with what it publishes, and `tridboard view`, which feeds it
// from a broker. The Hub replays the moves with the rules (rules/systems)
// to know the position, the notation, the pieces on each cell and the
// hints of a lifted piece (leds.HintsFor). Everything the pages need is
// embedded in the binary, three.js included (static/vendor/three, with
// its licence and VERSION): a hall without internet works.
package web
