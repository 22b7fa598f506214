package broker

import "github.com/tridboard/tridboard/internal/setting"

// Validate checks the limits of the configuration file (mqtt.limits):
// none negative (0 is the default), max_queued at most 32767,
// max_packet_size 1024 to 268435455 bytes (MQTT's largest) or 0. Its error is setting.Problems, keyed by the yaml
// names, every problem at once.
func (l *Limits) Validate() error {
	var ps setting.Problems
	for _, v := range []struct {
		key string
		n   int
	}{{"max_sessions", l.MaxSessions}, {"max_sessions_per_account", l.MaxSessionsPerAccount},
		{"max_queued", l.MaxQueued}, {"max_queued_bytes", l.MaxQueuedBytes},
		{"max_retained", l.MaxRetained}, {"max_retained_bytes", l.MaxRetainedBytes},
		{"max_connections", l.MaxConnections}, {"max_connections_per_address", l.MaxConnectionsPerAddress}} {
		if v.n < 0 {
			ps.Add(v.key, "%d: want 0 (the default) or more", v.n)
		}
	}
	if l.MaxQueued > 32767 {
		ps.Add("max_queued", "%d: want at most 32767", l.MaxQueued)
	}
	if d := l.ConnectTimeout; d < 0 {
		ps.Add("connect_timeout", "%v: want 0 (the default, 5s) or more", d)
	}
	if v := l.MaxPacketSize; v != 0 && (v < 1024 || v > 268435455) {
		ps.Add("max_packet_size", "%d: want 1024 to 268435455 bytes (0: the default, 256 KiB)", v)
	}
	if d := l.SessionExpiry; d < 0 {
		ps.Add("session_expiry", "%v: want 0 (the default, 168h) or more", d)
	}
	return ps.Err("broker")
}
