package broker

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
)

// TestLimitsValidate: each bad limit is one problem keyed by its yaml
// name, saying what is accepted; all of them at once; 0 is the default.
func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		name string
		l    Limits
		want setting.Problems
	}{
		{"zero: the defaults", Limits{}, nil},
		{"the defaults", DefaultLimits(), nil},
		{"negative", Limits{MaxSessions: -1}, setting.Problems{{Key: "max_sessions", Msg: "-1: want 0 (the default) or more"}}},
		{"queue", Limits{MaxQueued: 32768}, setting.Problems{{Key: "max_queued", Msg: "32768: want at most 32767"}}},
		{"packet", Limits{MaxPacketSize: 10}, setting.Problems{{Key: "max_packet_size", Msg: "10: want 1024 to 268435455 bytes (0: the default, 256 KiB)"}}},
		{"timeouts", Limits{ConnectTimeout: -time.Second, SessionExpiry: -time.Hour}, setting.Problems{
			{Key: "connect_timeout", Msg: "-1s: want 0 (the default, 5s) or more"},
			{Key: "session_expiry", Msg: "-1h0m0s: want 0 (the default, 168h) or more"}}},
		{"all in order", Limits{MaxConnectionsPerAddress: -2, MaxRetained: -3}, setting.Problems{
			{Key: "max_retained", Msg: "-3: want 0 (the default) or more"},
			{Key: "max_connections_per_address", Msg: "-2: want 0 (the default) or more"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := setting.Of(tt.l.Validate())
			if len(got) != len(tt.want) {
				t.Fatalf("problems = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestAccountSecrets: a password from a file (its first line), from the
// environment, or a hash.
func TestAccountSecrets(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("from-file\r\nsecond line\n"), 0o600)
	t.Setenv("TRIDBOARD_TEST_PW", "from-env")
	for _, tt := range []struct {
		a          AccountSetting
		pass, hash string
	}{
		{AccountSetting{PasswordFile: pw}, "from-file", ""},
		{AccountSetting{PasswordEnv: "TRIDBOARD_TEST_PW"}, "from-env", ""},
		{AccountSetting{PasswordHash: "$2a$10$x"}, "", "$2a$10$x"},
	} {
		p, h, err := tt.a.Secret()
		if err != nil || p != tt.pass || h != tt.hash {
			t.Errorf("%+v: %q %q %v, want %q %q", tt.a, p, h, err, tt.pass, tt.hash)
		}
	}
}

// TestSettingsValidate: the certificate, the accounts and the limits, each
// problem keyed by its yaml name inside the mqtt section, all at once.
func TestSettingsValidate(t *testing.T) {
	s := DefaultSettings()
	if err := s.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	s.TLS.KeyFile = "k.pem"
	s.Accounts = []AccountSetting{
		{Username: "a", Role: "display", PasswordHash: "$2a$04$abcdefghijklmnopqrstuuJ0Ym3uHqXz4mSDLMNZ3gKQhvJxqZp0a"},
		{Username: "a", Role: "admin", PasswordHash: "md5:x"},
		{Role: "controller", PasswordEnv: "TRIDBOARD_TEST_UNSET_PW", PasswordFile: "pw"},
	}
	s.Limits.MaxQueued = -1
	want := setting.Problems{
		{Key: "tls", Msg: "cert_file and key_file go together"},
		{Key: "accounts[1].username", Msg: `"a" is given twice`},
		{Key: "accounts[1].role", Msg: `role "admin": want daemon, controller or display`},
		{Key: "accounts[1]", Msg: "not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash"},
		{Key: "accounts[2].username", Msg: "missing"},
		{Key: "accounts[2]", Msg: "give one of password_file, password_env, password_hash"},
		{Key: "limits.max_queued", Msg: "-1: want 0 (the default) or more"},
	}
	got := setting.Of(s.Validate())
	if len(got) != len(want) {
		t.Fatalf("problems:\n%+v\nwant\n%+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("problem %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestSettingsApply: the settings become the broker's options, the
// passwords read; an account whose password cannot be read is named.
func TestSettingsApply(t *testing.T) {
	t.Setenv("TRIDBOARD_TEST_HALL_PW", "hall-pw")
	s := DefaultSettings()
	s.WebSocket = "127.0.0.1:0"
	s.TLS = TLSFiles{CertFile: "c.pem", KeyFile: "k.pem"}
	s.Limits.MaxQueued = 10
	s.Accounts = []AccountSetting{{Username: "hall", Role: "display", PasswordEnv: "TRIDBOARD_TEST_HALL_PW"},
		{Username: "ctl", Role: "controller", PasswordHash: "$2a$04$x"}}
	o := Opts{Prefix: "p"}
	if err := s.Apply(&o); err != nil {
		t.Fatal(err)
	}
	if o.Addr != "127.0.0.1:1883" || o.WSAddr != "127.0.0.1:0" || o.CertFile != "c.pem" || o.KeyFile != "k.pem" ||
		o.Limits.MaxQueued != 10 || o.Prefix != "p" || len(o.Accounts) != 2 ||
		o.Accounts[0] != (Account{Username: "hall", Role: RoleDisplay, Password: "hall-pw"}) ||
		o.Accounts[1] != (Account{Username: "ctl", Role: RoleController, Hash: "$2a$04$x"}) {
		t.Fatalf("opts = %+v", o)
	}
	s.Accounts[0].PasswordEnv = "TRIDBOARD_TEST_UNSET_PW"
	err := s.Apply(&o)
	if want := "accounts[0] (hall): password_env: $TRIDBOARD_TEST_UNSET_PW is not set"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}
