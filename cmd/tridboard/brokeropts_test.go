package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/config"
)

// TestBrokerOptsFromConfig: the accounts of the configuration log in to
// the embedded broker with their roles, the daemon's login too, and a
// wrong password does not.
func TestBrokerOptsFromConfig(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "hall.pw")
	os.WriteFile(pw, []byte("hall-secret\n"), 0o600)
	t.Setenv("TRIDBOARD_TEST_REFEREE", "referee-secret")
	cfgFile := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfgFile, []byte("board_id: hall1\nstate_dir: "+dir+"\nmqtt:\n  listen: 127.0.0.1:0\n  username: board\n  password: board-secret\n"+
		"  accounts:\n    - {username: hall, role: display, password_file: "+pw+"}\n"+
		"    - {username: referee, role: controller, password_env: TRIDBOARD_TEST_REFEREE}\n"+
		"  limits:\n    max_packet_size: 65536\n    session_expiry: 24h\n"), 0o644)
	cfg, err := config.Load(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	o, err := brokerOpts(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if o.DaemonClientID != "tridboard-hall1" || o.BoardID != "hall1" || o.StorePath != filepath.Join(dir, "broker.db") ||
		o.Limits.MaxPacketSize != 65536 || o.Limits.SessionExpiry != 24*time.Hour || len(o.Accounts) != 2 ||
		o.Accounts[0] != (broker.Account{Username: "hall", Role: broker.RoleDisplay, Password: "hall-secret"}) ||
		o.Accounts[1] != (broker.Account{Username: "referee", Role: broker.RoleController, Password: "referee-secret"}) {
		t.Fatalf("options %+v", o)
	}
	b, err := broker.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, c := range []struct {
		user, pass string
		ok         bool
	}{{"board", "board-secret", true}, {"hall", "hall-secret", true}, {"referee", "referee-secret", true}, {"hall", "referee-secret", false}} {
		cli := paho.NewClient(paho.NewClientOptions().AddBroker(b.URL()).SetClientID("t-" + c.user + c.pass).
			SetUsername(c.user).SetPassword(c.pass).SetAutoReconnect(false))
		tok := cli.Connect()
		if !tok.WaitTimeout(10*time.Second) || (tok.Error() == nil) != c.ok {
			t.Errorf("%s/%s: %v, want ok=%v", c.user, c.pass, tok.Error(), c.ok)
		}
		cli.Disconnect(0)
	}
}
