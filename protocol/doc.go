// Package protocol is what a tridboard set says and is told, apart from the
// transport that carries it: the payloads (State, Move, Event,
// RemoteRecord), the commands (NewGame, TakeBack, Clock, ...) with their
// parsing and validation, the replies (Response), and the conversions from
// the table's snapshots and events (StateOf, EventOf) and to the table's
// commands (TableCommand, TableHandler).
//
// Package mqtt carries these payloads over MQTT (the topics, the durable
// outbox, the broker); package web shows them on the pages and takes the
// same commands from them; package opponent and the event runner speak it
// to other sets. A new command is a type here, a case in TableCommand, and
// its table command: no transport changes.
//
// The payloads are JSON; docs/mqtt.md describes each field. Version is
// the version of the payloads: a State carries it ("v"), and a reader
// refuses a state of a later version (State.Supported) instead of misdrawing
// it.
// Fields are only ever added within a version; a removed or changed field
// makes the next one.
package protocol
