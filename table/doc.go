// Package table is one physical chess set and the game on it: the sensors
// scanned, the recognizer turning readings into moves, the game session and
// its journal, and the outputs the game feeds.
//
// A Table owns the recognizer and the session as one thing, and is the one
// owner of the expected position: every change of the game (a move on the
// set, a new game, a take-back, a promotion choice, a resignation, a draw, a
// resync, a move made elsewhere) goes through it, as a typed Command or from
// the sensors.
//
// It is built from its dependencies, each injected (Opts): the I2C bus (real,
// or sim's), the clock (real, or sim's, so that a whole table runs in
// simulated time in unit tests), the rule system, the state directory, and
// its outputs, the Sinks. Outputs get domain Events, each with a Snapshot of
// the table after it; each sink runs on its own goroutine behind a bounded
// queue, so that a slow or failing sink never holds up scanning or another
// sink. The MQTT client, the LEDs, the terminal printer, the web displays,
// the clock's 7-segment displays and the opponents are sinks (sibling
// packages ledsink, mqttsink, printsink, websink, segsink, and package
// opponent's Manager).
//
// The commands are a closed set (Command is sealed): NewGame, Promote,
// TakeBack, Resign, Draw, Resync, PlayMove, Clock, Hint, Teach, Alert, and
// the remote game's Peer, PeerFlag and PeerTakeBack.
//
// Scanning never waits on the disk: a recognized move is journaled by a
// worker goroutine while the scan loop and the recognizer go on, and it takes
// effect (events to the sinks) once its journal record is durable.
//
// A Table holds no global state: a process may run many, each with its own
// bus, state directory and sinks.
package table
