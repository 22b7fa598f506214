// Package broker is tridboard's embedded MQTT broker: the set's own broker
// when no external one is configured (docs/mqtt.md, "Embedded").
//
// It is mochi-mqtt with hooks of its own:
//
//   - auth.go: logins (the daemon's account, further accounts with a role:
//     daemon, controller, display; bcrypt or argon2id hashes), each role's
//     rights on the board's topics, the daemon's client id kept for the
//     daemon, a backoff for wrong passwords per address, and the persistent
//     sessions bounded per account.
//   - cmdrate.go: a command rate per client, beyond which the broker itself
//     answers busy.
//   - store.go and deliver.go: persistent sessions and retained messages in
//     a bbolt file of the state directory, and the delivery of a session's
//     queue whole and in order across reconnections and restarts.
//   - listen.go: listeners that bound connections (in all, per address),
//     close a connection that sends no CONNECT in time, and survive Accept
//     errors; a plain loopback listener of its own for the daemon's client.
//   - log.go: mochi's log at the daemon's levels.
//   - settings.go: the broker's part of the configuration file's mqtt
//     section (Settings: listen, websocket, tls, accounts, limits; checked
//     by Validate, made Opts by Apply).
//
// The MQTT client (package mqtt) and the broker import neither each other
// nor each other's MQTT library (docs/layers_test.go). Why the broker is not
// nats-server, measured: docs/mqtt.md, "The embedded broker: decision".
package broker
