package mqtt

import (
	"crypto/tls"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"testing"
)

// clientTLS is the client TLS configuration of f's client certificate.
func clientTLS(t testing.TB, f *mqtttest.TLSFiles) *tls.Config {
	t.Helper()
	c, err := tlsConfig(Opts{Broker: "test", CAFile: f.CA, CertFile: f.ClientCert, KeyFile: f.ClientKey})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
