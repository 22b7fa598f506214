// Package mqtt publishes a tridboard game over MQTT and receives commands.
//
// The daemon uses three pieces (the embedded broker is package broker):
//
//   - Client (client.go): the daemon's own connection (paho), which keeps
//     reconnecting, publishes availability, retained state, events and Home
//     Assistant discovery, and answers commands. Given a cluster's nodes it
//     keeps a standby connection to another node and publishes on it while
//     its own is down (a node that dies costs a set milliseconds, not the
//     seconds of connecting again).
//   - Outbox (outbox.go): a durable, ordered, checksummed queue of moves in
//     the state directory. A move enqueued is published (QoS 1, one at a time,
//     waiting for each PUBACK) until the broker acknowledges it, across broker
//     outages and daemon restarts.
//   - Handler (commands.go): the interface the daemon implements to act on
//     the commands received on <prefix>/<board>/set/<command>.
//
// Topics and payloads are described in docs/mqtt.md. Publishing never blocks
// the caller on the network: Enqueue appends and fsyncs a record, and
// PublishState and PublishEvent only store the payload for a goroutine.
package mqtt
