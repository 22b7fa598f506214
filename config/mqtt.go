package config

import (
	"fmt"
	"net"

	"github.com/tridboard/tridboard/broker"
)

// checkMQTT checks the mqtt section's embedded broker: its listeners (a
// host:port, beyond loopback only with a login), the accounts against the
// daemon's username, and its own settings (broker.Settings.Validate:
// certificate, accounts, limits); the client's settings are
// mqtt.Opts.Validate's.
func (c *Config) checkMQTT() []keyError {
	var errs []keyError
	bad := func(key, format string, args ...any) {
		errs = append(errs, keyError{key, fmt.Sprintf(format, args...)})
	}
	m := c.MQTT
	embedded := m.Broker == ""
	if !embedded {
		for key, set := range map[string]bool{"mqtt.tls": m.TLS != broker.TLSFiles{}, "mqtt.accounts": len(m.Accounts) > 0} {
			if set {
				bad(key, "for the embedded broker only, and mqtt.broker names an external one")
			}
		}
		return errs
	}
	login := m.Username != "" || len(m.Accounts) > 0
	listen := func(key, addr string) {
		if msg := checkListen(addr); msg != "" {
			bad(key, "%q: %s", addr, msg)
			return
		}
		host, _, _ := net.SplitHostPort(addr)
		ip := net.ParseIP(host)
		if !login && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			bad(key, "%q is reachable beyond loopback: set mqtt.username and a password, or accounts", addr)
		}
	}
	if m.Listen == "" {
		bad("mqtt.listen", "empty and no external broker: give one")
	} else {
		listen("mqtt.listen", m.Listen)
	}
	if m.WebSocket != "" {
		listen("mqtt.websocket", m.WebSocket)
	}
	for i, a := range m.Accounts {
		if m.Username != "" && a.Username == m.Username {
			bad(fmt.Sprintf("mqtt.accounts[%d].username", i), "%q is given twice (mqtt.username counts too)", a.Username)
		}
	}
	return c.section(errs, "mqtt", m.Settings.Validate())
}
