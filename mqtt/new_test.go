package mqtt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tridboard/tridboard/internal/mqtttest"
)

// TestNewRefuses: a client with bad options is refused with what and where.
func TestNewRefuses(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o644)
	tests := []struct {
		name string
		edit func(o *Opts)
		want string
	}{
		{"no broker", func(o *Opts) { o.Broker = "" }, "mqtt: no broker URL"},
		{"bad scheme", func(o *Opts) { o.Broker = "http://example.com:1883" }, `mqtt: broker "http://example.com:1883": scheme "http": want tcp, ssl, ws or wss (or mqtt, mqtts, tls)`},
		{"no host", func(o *Opts) { o.Broker = "tcp://" }, `mqtt: broker "tcp://": no host`},
		{"a bad node in a list", func(o *Opts) { o.Broker = "tcp://a:1883,ws//b" }, `mqtt: broker "ws//b": scheme "": want tcp, ssl, ws or wss (or mqtt, mqtts, tls)`},
		{"an empty entry", func(o *Opts) { o.Broker = "tcp://a:1883,,tcp://b:1883" }, `mqtt: broker list "tcp://a:1883,,tcp://b:1883": an empty entry`},
		{"a node twice", func(o *Opts) { o.Broker = "tcp://a:1883, tcp://a:1883" }, `mqtt: broker "tcp://a:1883": listed twice`},
		{"board with slash", func(o *Opts) { o.BoardID = "a/b" }, `mqtt: board id "a/b": must be one topic level, without '/'`},
		{"board with wildcard", func(o *Opts) { o.BoardID = "a+" }, `mqtt: board id "a+": holds a wildcard or NUL`},
		{"empty prefix", func(o *Opts) { o.Prefix = "" }, `mqtt: topic prefix "": empty`},
		{"prefix with empty level", func(o *Opts) { o.Prefix = "home//chess" }, `mqtt: topic prefix "home//chess": has an empty level`},
		{"system prefix", func(o *Opts) { o.Prefix = "$SYS" }, `mqtt: topic prefix "$SYS": starts with '$', reserved for brokers`},
		{"no state dir", func(o *Opts) { o.StateDir = "" }, "mqtt: outbox: no state directory"},
		{"missing CA", func(o *Opts) { o.CAFile = filepath.Join(dir, "none.pem") }, "mqtt: broker tcp://127.0.0.1:1883: CA file: open " + filepath.Join(dir, "none.pem") + ": no such file or directory"},
		{"CA not PEM", func(o *Opts) { o.CAFile = notPEM }, "mqtt: broker tcp://127.0.0.1:1883: CA file " + notPEM + ": no PEM certificate in it"},
		{"cert without key", func(o *Opts) { o.CertFile = notPEM }, "mqtt: broker tcp://127.0.0.1:1883: client certificate: set both a certificate file and a key file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOpts()
			o.StateDir = t.TempDir()
			o.Logger = mqtttest.Quiet
			tt.edit(&o)
			c, err := New(o, nil)
			if err == nil {
				c.Close(t.Context())
				t.Fatal("New succeeded")
			}
			if err.Error() != tt.want {
				t.Fatalf("error %q\n want %q", err, tt.want)
			}
		})
	}
}
