package config

import (
	"crypto/tls"
	"fmt"
	"net"

	"github.com/tridboard/tridboard/broker"
)

// checkMQTT checks the mqtt section's embedded broker: its listeners,
// accounts, certificate and limits (broker.Limits.Validate); the
// client's settings are mqtt.Opts.Validate's.
func (c *Config) checkMQTT() []keyError {
	var errs []keyError
	bad := func(key, format string, args ...any) {
		errs = append(errs, keyError{key, fmt.Sprintf(format, args...)})
	}
	m := c.MQTT
	embedded := m.Broker == ""
	if !embedded {
		for key, set := range map[string]bool{"mqtt.tls": m.TLS != TLS{}, "mqtt.accounts": len(m.Accounts) > 0} {
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
	if (m.TLS.CertFile == "") != (m.TLS.KeyFile == "") {
		bad("mqtt.tls", "cert_file and key_file go together")
	} else if m.TLS.CertFile != "" {
		if _, err := tls.LoadX509KeyPair(m.TLS.CertFile, m.TLS.KeyFile); err != nil {
			bad("mqtt.tls.cert_file", "%s: %v", m.TLS.CertFile, err)
		}
	}
	seen := map[string]bool{m.Username: m.Username != ""}
	for i, a := range m.Accounts {
		key := fmt.Sprintf("mqtt.accounts[%d]", i)
		switch {
		case a.Username == "":
			bad(key+".username", "missing")
		case seen[a.Username]:
			bad(key+".username", "%q is given twice (mqtt.username counts too)", a.Username)
		}
		seen[a.Username] = true
		if _, err := broker.ParseRole(a.Role); err != nil {
			bad(key+".role", "%v", err)
		}
		_, hash, err := a.Secret()
		if err == nil && hash != "" {
			err = broker.CheckHash(hash)
		}
		if err != nil {
			bad(key, "%v", err)
		}
	}
	return c.section(errs, "mqtt.limits", m.Limits.Validate())
}
