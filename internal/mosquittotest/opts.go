package mosquittotest

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// Opts says how to run a broker.
type Opts struct {
	// Users are the password file's entries (name to password); with
	// none, anyone may log in anonymously.
	Users map[string]string
	// WebSockets adds a second loopback listener that speaks MQTT over
	// websockets (Broker.WSURL).
	WebSockets bool
	// TLS, when set, makes the main listener speak TLS (Broker.URL is
	// ssl://) and require a client certificate signed by its CA.
	TLS *TLS
	// Persistence saves sessions and retained messages in the test's
	// temporary directory when the broker stops, so that a restart keeps
	// them.
	Persistence bool
	// Config holds further global lines of mosquitto.conf, such as
	// "max_queued_messages 100000".
	Config []string
	// Ready bounds how long Start waits for the broker to listen.
	Ready time.Duration
}

// TLS names the PEM files of a TLS listener.
type TLS struct {
	// CAFile is the CA that signs the client certificates the listener
	// accepts; CertFile and KeyFile are the server's certificate and key.
	CAFile, CertFile, KeyFile string
}

// DefaultOpts returns the defaults: anonymous logins on one plain TCP
// listener, persistence on, 5 s to start listening.
func DefaultOpts() Opts {
	return Opts{Persistence: true, Ready: 5 * time.Second}
}

// config is the mosquitto.conf of o, with the persistence and the password
// file in dir and the listeners on the given ports (wsPort "" for none).
func (o Opts) config(dir, passwd, port, wsPort string) string {
	var c strings.Builder
	c.WriteString("log_dest stderr\nlog_type error\nlog_type warning\n")
	if o.Persistence {
		fmt.Fprintf(&c, "persistence true\npersistence_location %s/\n", dir)
	}
	if os.Getuid() == 0 {
		c.WriteString("user root\n") // else it drops to "mosquitto", who cannot read the temp dir
	}
	if passwd == "" {
		c.WriteString("allow_anonymous true\n")
	} else {
		fmt.Fprintf(&c, "allow_anonymous false\npassword_file %s\n", passwd)
	}
	for _, l := range o.Config {
		c.WriteString(l + "\n")
	}
	fmt.Fprintf(&c, "listener %s 127.0.0.1\n", port)
	if o.TLS != nil {
		fmt.Fprintf(&c, "cafile %s\ncertfile %s\nkeyfile %s\nrequire_certificate true\n", o.TLS.CAFile, o.TLS.CertFile, o.TLS.KeyFile)
	}
	if wsPort != "" {
		fmt.Fprintf(&c, "listener %s 127.0.0.1\nprotocol websockets\n", wsPort)
	}
	return c.String()
}
