package main

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/config"
)

// brokerOpts builds the embedded broker's options from the configuration:
// its own settings (broker.Settings.Apply: listeners, TLS, the accounts
// with their passwords, the limits), the daemon's account (mqtt.username
// and password), the daemon's topics and client id, and the store in the
// state directory. cfg must have passed Validate.
func brokerOpts(cfg *config.Config, log *slog.Logger) (broker.Opts, error) {
	m := cfg.MQTT
	o := broker.Opts{
		Username: m.Username, Password: m.Password,
		Prefix: m.Prefix, BoardID: cfg.BoardID, Discovery: m.Discovery,
		DaemonClientID: daemonClientID(cfg),
		// A person presses a few buttons a second; a program that floods
		// is answered busy by the broker beyond this (docs/mqtt.md).
		CommandRate: commandRate,
		Logger:      log,
		StorePath:   filepath.Join(cfg.StateDir, "broker.db"),
	}
	// The file's broker settings (broker.Settings) as they are.
	if err := m.Settings.Apply(&o); err != nil {
		return broker.Opts{}, fmt.Errorf("config: mqtt.%w", err)
	}
	return o, nil
}

// commandRate is how many commands a second one client of the embedded
// broker may publish, in a burst of twice that.
const commandRate = 10

// daemonClientID is the MQTT client id of the daemon's own client, which
// the embedded broker keeps for it: mqtt.Opts's default.
func daemonClientID(cfg *config.Config) string { return "tridboard-" + cfg.BoardID }
