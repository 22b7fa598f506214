package mqtt

import (
	"strings"

	"github.com/tridboard/tridboard/internal/setting"
)

// Validate checks the settings of the configuration file's mqtt section
// that are the client's: the broker's URL (ParseBrokers; empty is left to
// the caller, whose embedded broker gives one), the prefix and the
// discovery prefix (topic levels without wildcards, '$' or empty levels;
// discovery may be empty), the client certificate (cert_file and key_file
// together, readable) and the CAs, and the login (a username with a
// password, and no password without one). Its error is setting.Problems,
// keyed by the yaml names, every problem at once.
func (o *Opts) Validate() error {
	var ps setting.Problems
	if o.Broker != "" {
		if _, err := ParseBrokers(o.Broker); err != nil {
			ps.Add("broker", "%s", strings.TrimPrefix(err.Error(), "mqtt: broker "))
		}
	}
	levels := func(key, v string, empty bool) {
		switch {
		case v == "" && !empty:
			ps.Add(key, "empty")
		case strings.ContainsAny(v, "+#\x00"):
			ps.Add(key, "%q: holds a wildcard (+ #) or NUL", v)
		case strings.HasPrefix(v, "$"):
			ps.Add(key, "%q: starts with '$', reserved for brokers", v)
		case v != "" && (strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") || strings.Contains(v, "//")):
			ps.Add(key, "%q: has an empty level", v)
		}
	}
	levels("prefix", o.Prefix, false)
	levels("discovery", o.Discovery, true)
	if (o.CertFile == "") != (o.KeyFile == "") {
		ps.Add("cert_file", "cert_file and key_file go together")
	} else if _, err := ClientTLS("", o.CertFile, o.KeyFile); err != nil {
		ps.Add("cert_file", "%v", err)
	}
	if _, err := ClientTLS(o.CAFile, "", ""); err != nil {
		ps.Add("ca_file", "%v", err)
	}
	if o.Username != "" && o.Password == "" {
		ps.Add("username", "%q without a password: set mqtt.password or TRIDBOARD_MQTT_PASSWORD", o.Username)
	}
	if o.Username == "" && o.Password != "" {
		ps.Add("username", "a password without a username: set mqtt.username")
	}
	return ps.Err("mqtt")
}
