package main

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/config"
)

// brokerOpts builds the embedded broker's options from the configuration:
// listeners, TLS, the daemon's account (mqtt.username and password) and the
// other accounts with their passwords read from their files or the
// environment, the daemon's topics and client id, the limits, and the
// store in the state directory. cfg must have passed Validate.
func brokerOpts(cfg *config.Config, log *slog.Logger) (broker.Opts, error) {
	m := cfg.MQTT
	o := broker.Opts{
		Addr: m.Listen, WSAddr: m.WebSocket,
		Username: m.Username, Password: m.Password,
		CertFile: m.TLS.CertFile, KeyFile: m.TLS.KeyFile, Limits: m.Limits,
		Prefix: m.Prefix, BoardID: cfg.BoardID, Discovery: m.Discovery,
		DaemonClientID: daemonClientID(cfg),
		// A person presses a few buttons a second; a program that floods
		// is answered busy by the broker beyond this (docs/mqtt.md).
		CommandRate: commandRate,
		Logger:      log,
		StorePath:   filepath.Join(cfg.StateDir, "broker.db"),
	}
	for i, a := range m.Accounts {
		pw, hash, err := a.Secret()
		if err != nil {
			return broker.Opts{}, fmt.Errorf("config: mqtt.accounts[%d] (%s): %w", i, a.Username, err)
		}
		o.Accounts = append(o.Accounts, broker.Account{Username: a.Username, Role: broker.Role(a.Role), Password: pw, Hash: hash})
	}
	return o, nil
}

// commandRate is how many commands a second one client of the embedded
// broker may publish, in a burst of twice that.
const commandRate = 10

// daemonClientID is the MQTT client id of the daemon's own client, which
// the embedded broker keeps for it: mqtt.Opts's default.
func daemonClientID(cfg *config.Config) string { return "tridboard-" + cfg.BoardID }
