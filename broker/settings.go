package broker

import (
	"crypto/tls"
	"fmt"
	"os"
	"strings"

	"github.com/tridboard/tridboard/internal/setting"
)

// Validate checks the limits of the configuration file (mqtt.limits):
// none negative (0 is the default), max_queued at most 32767,
// max_packet_size 1024 to 268435455 bytes (MQTT's largest) or 0. Its error is setting.Problems, keyed by the yaml
// names, every problem at once.
func (l *Limits) Validate() error {
	var ps setting.Problems
	for _, v := range []struct {
		key string
		n   int
	}{{"max_sessions", l.MaxSessions}, {"max_sessions_per_account", l.MaxSessionsPerAccount},
		{"max_queued", l.MaxQueued}, {"max_queued_bytes", l.MaxQueuedBytes},
		{"max_retained", l.MaxRetained}, {"max_retained_bytes", l.MaxRetainedBytes},
		{"max_connections", l.MaxConnections}, {"max_connections_per_address", l.MaxConnectionsPerAddress}} {
		if v.n < 0 {
			ps.Add(v.key, "%d: want 0 (the default) or more", v.n)
		}
	}
	if l.MaxQueued > 32767 {
		ps.Add("max_queued", "%d: want at most 32767", l.MaxQueued)
	}
	if d := l.ConnectTimeout; d < 0 {
		ps.Add("connect_timeout", "%v: want 0 (the default, 5s) or more", d)
	}
	if v := l.MaxPacketSize; v != 0 && (v < 1024 || v > 268435455) {
		ps.Add("max_packet_size", "%d: want 1024 to 268435455 bytes (0: the default, 256 KiB)", v)
	}
	if d := l.SessionExpiry; d < 0 {
		ps.Add("session_expiry", "%v: want 0 (the default, 168h) or more", d)
	}
	return ps.Err("broker")
}

// Settings are the embedded broker's settings in the configuration file's
// mqtt section, beside the client's (mqtt.Opts): its listeners, its
// certificate, the accounts besides the daemon's, and the limits.
// DefaultSettings gives the defaults and Validate checks them; the daemon
// makes the broker's Opts of them (Addr, WSAddr, CertFile, KeyFile,
// Accounts with their passwords read by Secret, Limits).
type Settings struct {
	// Listen is the TCP listener's address (Opts.Addr).
	Listen string `yaml:"listen"`
	// WebSocket is the websocket listener's address ("" = none;
	// Opts.WSAddr).
	WebSocket string `yaml:"websocket"`
	// TLS gives the listeners a certificate (TCP becomes ssl://, the
	// websocket wss://).
	TLS TLSFiles `yaml:"tls"`
	// Accounts are logins besides the daemon's own, each with a role:
	// display or controller (or daemon).
	Accounts []AccountSetting `yaml:"accounts"`
	// Limits bound what clients can make the broker hold (0 = the
	// default, see docs/mqtt.md).
	Limits Limits `yaml:"limits"`
}

// DefaultSettings: TCP on 127.0.0.1:1883, no websocket, no certificate, no
// accounts, the default limits.
func DefaultSettings() Settings { return Settings{Listen: "127.0.0.1:1883"} }

// TLSFiles are the listeners' certificate (chain) and key: PEM files.
type TLSFiles struct {
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// AccountSetting is an Account as the configuration file gives it: its
// password comes from exactly one of a file (its first line), an
// environment variable, or a bcrypt or argon2id hash written in the file.
type AccountSetting struct {
	Username     string `yaml:"username"`
	Role         string `yaml:"role"`
	PasswordFile string `yaml:"password_file"`
	PasswordEnv  string `yaml:"password_env"`
	PasswordHash string `yaml:"password_hash"`
}

// Secret reads the account's password: (password, "") from a file or the
// environment, or ("", hash) from password_hash.
func (a AccountSetting) Secret() (password, hash string, err error) {
	n := 0
	for _, v := range []string{a.PasswordFile, a.PasswordEnv, a.PasswordHash} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return "", "", fmt.Errorf("give one of password_file, password_env, password_hash")
	}
	switch {
	case a.PasswordFile != "":
		b, err := os.ReadFile(a.PasswordFile)
		if err != nil {
			return "", "", fmt.Errorf("password_file: %w", err)
		}
		pw, _, _ := strings.Cut(string(b), "\n")
		if pw = strings.TrimRight(pw, "\r"); pw == "" {
			return "", "", fmt.Errorf("password_file %s: empty first line", a.PasswordFile)
		}
		return pw, "", nil
	case a.PasswordEnv != "":
		pw := os.Getenv(a.PasswordEnv)
		if pw == "" {
			return "", "", fmt.Errorf("password_env: $%s is not set", a.PasswordEnv)
		}
		return pw, "", nil
	}
	return "", a.PasswordHash, nil
}

// Validate checks the certificate (cert_file and key_file together, a
// readable pair), the accounts (a username, each once, a role, one
// password source that can be read, a hash Account.Hash takes) and the
// limits (Limits.Validate, under "limits."). The listeners' addresses are
// the caller's to check (a host:port it may listen on; beyond loopback
// only with a login). Its error is setting.Problems, keyed by the yaml
// names ("accounts[1].role"), every problem at once.
func (s *Settings) Validate() error {
	var ps setting.Problems
	if (s.TLS.CertFile == "") != (s.TLS.KeyFile == "") {
		ps.Add("tls", "cert_file and key_file go together")
	} else if s.TLS.CertFile != "" {
		if _, err := tls.LoadX509KeyPair(s.TLS.CertFile, s.TLS.KeyFile); err != nil {
			ps.Add("tls.cert_file", "%s: %v", s.TLS.CertFile, err)
		}
	}
	seen := map[string]bool{}
	for i, a := range s.Accounts {
		key := fmt.Sprintf("accounts[%d]", i)
		switch {
		case a.Username == "":
			ps.Add(key+".username", "missing")
		case seen[a.Username]:
			ps.Add(key+".username", "%q is given twice", a.Username)
		}
		seen[a.Username] = true
		if _, err := ParseRole(a.Role); err != nil {
			ps.Add(key+".role", "%v", err)
		}
		_, hash, err := a.Secret()
		if err == nil && hash != "" {
			err = CheckHash(hash)
		}
		if err != nil {
			ps.Add(key, "%v", err)
		}
	}
	for _, p := range setting.Of(s.Limits.Validate()) {
		ps = append(ps, setting.Problem{Key: "limits." + p.Key, Msg: p.Msg})
	}
	return ps.Err("broker")
}

// Apply sets the broker's options that the settings give: Addr, WSAddr,
// CertFile, KeyFile, Limits, and Accounts with their passwords read
// (AccountSetting.Secret). Its error names the account
// ("accounts[1] (hall): password_env: $HALL_PW is not set").
func (s *Settings) Apply(o *Opts) error {
	o.Addr, o.WSAddr = s.Listen, s.WebSocket
	o.CertFile, o.KeyFile = s.TLS.CertFile, s.TLS.KeyFile
	o.Limits = s.Limits
	o.Accounts = nil
	for i, a := range s.Accounts {
		pw, hash, err := a.Secret()
		if err != nil {
			return fmt.Errorf("accounts[%d] (%s): %w", i, a.Username, err)
		}
		o.Accounts = append(o.Accounts, Account{Username: a.Username, Role: Role(a.Role), Password: pw, Hash: hash})
	}
	return nil
}
