// Package hall writes the configuration of a secure hall's broker: for
// Mosquitto (a password file, an ACL and the broker's settings) and for a
// NATS cluster (each node's file: accounts and users with permissions,
// routes with credentials and TLS, a CA and the nodes' certificates). No
// client gets in without a login: each set may write only its own topics,
// the spectators only read, the event runner reads everything and sends
// the sets their commands (docs/hall.md, "A secure hall").
package hall
