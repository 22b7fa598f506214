package broker

import (
	"github.com/tridboard/tridboard/internal/mqtttest"
	"github.com/tridboard/tridboard/mqtt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// TestBrokerTLS: with a certificate the embedded broker's TCP listener
// speaks MQTT over TLS and its websocket listener wss; a display trusting
// the CA connects over both (paho, and mosquitto_sub --cafile, as
// docs/mqtt.md tells), a plain connection is refused, and the daemon's own
// client connects to LocalURL.
func TestBrokerTLS(t *testing.T) {
	f := mqtttest.MakeTLS(t)
	b, r, _ := rolesBroker(t, func(o *Opts) {
		o.Addr, o.WSAddr, o.CertFile, o.KeyFile = "127.0.0.1:0", "127.0.0.1:0", f.ServerCert, f.ServerKey
	})
	if !strings.HasPrefix(b.URL(), "ssl://127.0.0.1:") || !strings.HasPrefix(b.WSURL(), "wss://127.0.0.1:") || !strings.HasPrefix(b.LocalURL(), "tcp://127.0.0.1:") {
		t.Fatalf("URLs %s %s %s", b.URL(), b.WSURL(), b.LocalURL())
	}
	caOnly, err := mqtt.ClientTLS(f.CA, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{b.URL(), b.WSURL()} {
		o := paho.NewClientOptions().AddBroker(url).SetClientID("tls-" + url[:3]).SetUsername(dispUser).SetPassword(dispPass).
			SetTLSConfig(caOnly).SetAutoReconnect(false)
		c := paho.NewClient(o)
		mqtttest.WaitToken(t, c.Connect(), "connect "+url)
		c.Disconnect(0)
	}
	plain := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + strings.TrimPrefix(b.URL(), "ssl://")).
		SetClientID("plain").SetUsername(dispUser).SetPassword(dispPass).SetAutoReconnect(false).SetConnectTimeout(2 * time.Second))
	if tok := plain.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		t.Fatal("a plain connection to the TLS listener was accepted")
	}

	tb := &testBroker{url: b.LocalURL(), user: testUser, pass: testPass}
	c := newClient(t, testOpts(tb, t.TempDir()), nil)
	waitConnected(t, c)
	r.WaitFor(t, "tridboard/board/availability", "online", func(m []mqtttest.Rec) bool { return len(m) == 1 })

	host, port, _ := net.SplitHostPort(strings.TrimPrefix(b.URL(), "ssl://"))
	sub := exec.Command("mosquitto_sub", "-h", host, "-p", port, "--cafile", f.CA, "-u", dispUser, "-P", dispPass,
		"-t", "tridboard/board/availability", "-C", "1", "-W", "10")
	out, err := sub.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != mqtt.Online {
		t.Fatalf("mosquitto_sub --cafile: %v: %s", err, out)
	}
}
