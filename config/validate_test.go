package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/st3d"
)

// TestValidateRefuses: one problem per case, with its key path and line,
// as both `config check` and `run` print it.
func TestValidateRefuses(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "display.pw")
	os.WriteFile(pw, []byte("s3cret\n"), 0o600)
	empty := filepath.Join(dir, "empty.pw")
	os.WriteFile(empty, []byte("\n"), 0o600)
	tests := []struct {
		name, yaml, want string
	}{
		{"bad listen address", "mqtt:\n  listen: 1883\n", `config t.yaml:2: mqtt.listen: "1883": address 1883: missing port in address`},
		{"port over 65535", "mqtt:\n  listen: 127.0.0.1:70000\n", `config t.yaml:2: mqtt.listen: "127.0.0.1:70000": port "70000": want 0 to 65535`},
		{"websocket port", "mqtt:\n  websocket: 127.0.0.1:http\n", `config t.yaml:2: mqtt.websocket: "127.0.0.1:http": port "http": want 0 to 65535`},
		{"username without password", "mqtt:\n  username: board\n", `config t.yaml:2: mqtt.username: "board" without a password: set mqtt.password or TRIDBOARD_MQTT_PASSWORD`},
		{"unknown broker scheme", "mqtt:\n  broker: http://hall:1883\n", `config t.yaml:2: mqtt.broker: "http://hall:1883": scheme "http": want tcp, ssl, ws or wss (or mqtt, mqtts, tls)`},
		{"broker without host", "mqtt:\n  broker: tcp://\n", `config t.yaml:2: mqtt.broker: "tcp://": no host`},
		{"NUL in the board id", "board_id: \"a\\0b\"\n", `config t.yaml:1: board_id: "a\x00b": want a non-empty name without / + # or NUL`},
		{"settle 0s", "recognition:\n  settle: 0s\n", `config t.yaml:2: recognition.settle: 0s: want 1ms to 5s`},
		{"remote grace under a second", "mqtt:\n  remote_grace: 500ms\n", `config t.yaml:2: mqtt.remote_grace: 500ms: want 1s to 1h0m0s`},
		{"remote grace not a duration", "mqtt:\n  remote_grace: soon\n", `config t.yaml:2: mqtt.remote_grace: "soon" is not a duration (such as 5ms or 1.5s)`},
		{"unknown play", "game:\n  play: blitz\n", `config t.yaml:2: game.play: "blitz": want casual, tournament or lesson`},
		{"0.0.0.0 without a password", "mqtt:\n  listen: 0.0.0.0:1883\n", `config t.yaml:2: mqtt.listen: "0.0.0.0:1883" is reachable beyond loopback: set mqtt.username and a password, or accounts`},
		{"websocket beyond loopback", "mqtt:\n  websocket: \":8080\"\n", `config t.yaml:2: mqtt.websocket: ":8080" is reachable beyond loopback: set mqtt.username and a password, or accounts`},
		{"prefix with empty level", "mqtt:\n  prefix: home//chess\n", `config t.yaml:2: mqtt.prefix: "home//chess": has an empty level`},
		{"accounts with an external broker", "mqtt:\n  broker: tcp://hall:1883\n  accounts:\n    - {username: a, role: display, password_file: " + pw + "}\n", `config t.yaml:4: mqtt.accounts: for the embedded broker only, and mqtt.broker names an external one`},
		{"account role", "mqtt:\n  accounts:\n    - username: a\n      role: admin\n      password_file: " + pw + "\n", `config t.yaml:4: mqtt.accounts[0].role: role "admin": want daemon, controller or display`},
		{"account without password", "mqtt:\n  accounts:\n    - username: a\n      role: display\n", `config t.yaml:3: mqtt.accounts[0]: give one of password_file, password_env, password_hash`},
		{"account password file missing", "mqtt:\n  accounts:\n    - {username: a, role: display, password_file: " + dir + "/none}\n", `config t.yaml:3: mqtt.accounts[0]: password_file: open ` + dir + `/none: no such file or directory`},
		{"account password file empty", "mqtt:\n  accounts:\n    - {username: a, role: display, password_file: " + empty + "}\n", `config t.yaml:3: mqtt.accounts[0]: password_file ` + empty + `: empty first line`},
		{"account password env unset", "mqtt:\n  accounts:\n    - {username: a, role: display, password_env: TRIDBOARD_TEST_UNSET}\n", `config t.yaml:3: mqtt.accounts[0]: password_env: $TRIDBOARD_TEST_UNSET is not set`},
		{"account bad hash", "mqtt:\n  accounts:\n    - {username: a, role: display, password_hash: \"md5:x\"}\n", `config t.yaml:3: mqtt.accounts[0]: not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash`},
		{"account twice", "mqtt:\n  username: a\n  password: p\n  accounts:\n    - {username: a, role: display, password_file: " + pw + "}\n", `config t.yaml:5: mqtt.accounts[0].username: "a" is given twice (mqtt.username counts too)`},
		{"half a certificate", "mqtt:\n  tls:\n    cert_file: c.pem\n", `config t.yaml:3: mqtt.tls: cert_file and key_file go together`},
		{"certificate missing", "mqtt:\n  tls:\n    cert_file: " + dir + "/c.pem\n    key_file: " + dir + "/k.pem\n", `config t.yaml:3: mqtt.tls.cert_file: ` + dir + `/c.pem: open ` + dir + `/c.pem: no such file or directory`},
		{"CA file missing", "mqtt:\n  broker: tls://hall:8883\n  ca_file: " + dir + "/ca.pem\n", `config t.yaml:3: mqtt.ca_file: CA file: open ` + dir + `/ca.pem: no such file or directory`},
		{"CA file not PEM", "mqtt:\n  broker: tls://hall:8883\n  ca_file: " + pw + "\n", `config t.yaml:3: mqtt.ca_file: CA file ` + pw + `: no PEM certificate in it`},
		{"client certificate missing", "mqtt:\n  broker: tls://hall:8883\n  cert_file: " + dir + "/c.pem\n  key_file: " + dir + "/k.pem\n", `config t.yaml:3: mqtt.cert_file: client certificate ` + dir + `/c.pem: open ` + dir + `/c.pem: no such file or directory`},
		{"state dir under a file", "state_dir: " + pw + "/state\n", `config t.yaml:1: state_dir: "` + pw + `/state": cannot be created: stat ` + pw + `/state: not a directory`},
		{"state dir is a file", "state_dir: " + pw + "\n", `config t.yaml:1: state_dir: "` + pw + `": not a directory`},
		{"web host not an address", "http:\n  listen: 999.1.1.1:8080\n", `config t.yaml:2: http.listen: "999.1.1.1:8080": host "999.1.1.1": want an IP address or a host name`},
		{"web host with a space", "http:\n  listen: \"hall pi:8080\"\n", `config t.yaml:2: http.listen: "hall pi:8080": host "hall pi": want an IP address or a host name`},
		{"broker host not an address", "mqtt:\n  listen: 127.0.0.256:1883\n", `config t.yaml:2: mqtt.listen: "127.0.0.256:1883": host "127.0.0.256": want an IP address or a host name`},
		{"packet size", "mqtt:\n  limits:\n    max_packet_size: 10\n", `config t.yaml:3: mqtt.limits.max_packet_size: 10: want 1024 to 268435455 bytes (0: the default, 256 KiB)`},
		{"negative limit", "mqtt:\n  limits:\n    max_sessions: -1\n", `config t.yaml:3: mqtt.limits.max_sessions: -1: want 0 (the default) or more`},
		{"negative connection limit", "mqtt:\n  limits:\n    max_connections_per_address: -1\n", `config t.yaml:3: mqtt.limits.max_connections_per_address: -1: want 0 (the default) or more`},
		{"queue beyond the resend order", "mqtt:\n  limits:\n    max_queued: 40000\n", `config t.yaml:3: mqtt.limits.max_queued: 40000: want at most 32767`},
		{"connect timeout", "mqtt:\n  limits:\n    connect_timeout: soon\n", `config t.yaml:3: mqtt.limits.connect_timeout: "soon" is not a duration (such as 5ms or 1.5s)`},
		{"wiring", "sensors:\n  preset: \"\"\n  wiring:\n    expanders:\n      - {address: 0x20, mode: direct, cells: [{cell: a1W, bit: 0}, {cell: b1W, bit: 0}]}\n", "config t.yaml:4: sensors.wiring: sensors: expander 0x20: bit 0 wired twice: a1W and b1W"},
		{"lesson hint limit", "lesson:\n  hints: {white: 3, black: -2}\n", "config t.yaml:2: lesson.hints.black: -2: want -1 (no limit) to 1000"},
		{"lesson assistance", "lesson:\n  assist:\n    black: most\n", `config t.yaml:3: lesson.assist.black: "most": want full, explain or none`},
		{"LED mapping", "leds:\n  mapping:\n    driver: ht16k33\n    cells: {zz9: 1}\n", "config t.yaml:3: leds.mapping: leds: ht16k33 0x0: address 0x0 outside the HT16K33 range 0x70..0x77"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			if err := c.decode("t.yaml", []byte(tt.yaml)); err != nil {
				t.Fatal(err)
			}
			err := c.Validate(st3d.CellNames())
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Validate: %v, want Problems", err)
			}
			if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), tt.want) {
				t.Fatalf("problems:\n%v\n want one starting %s", err, tt.want)
			}
		})
	}
}

// TestValidateReportsEveryProblem: all problems at once, in key order of
// the checks, each with its line.
func TestValidateReportsEveryProblem(t *testing.T) {
	c := Default()
	yaml := "board_id: a/b\nrecognition:\n  settle: 0s\nmqtt:\n  listen: 0.0.0.0:99999\n  username: u\n  broker: \"\"\n"
	if err := c.decode("t.yaml", []byte(yaml)); err != nil {
		t.Fatal(err)
	}
	err := c.Validate(st3d.CellNames())
	want := `config t.yaml:1: board_id: "a/b": want a non-empty name without / + # or NUL
config t.yaml:3: recognition.settle: 0s: want 1ms to 5s
config t.yaml:6: mqtt.username: "u" without a password: set mqtt.password or TRIDBOARD_MQTT_PASSWORD
config t.yaml:5: mqtt.listen: "0.0.0.0:99999": port "99999": want 0 to 65535`
	if err == nil || err.Error() != want {
		t.Fatalf("Validate:\n%v\nwant\n%s", err, want)
	}
}

// TestAliasesRefused: an alias bomb (nine levels of nine aliases, 478 bytes)
// is refused before decoding; so is any anchor.
func TestAliasesRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i <= 9; i++ {
		p := "*a" + string(rune('0'+i-1))
		b.WriteString("x" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat(p+",", 8) + p + "]\n")
	}
	bomb := b.String()
	if len(bomb) > 800 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	for name, data := range map[string]string{"bomb": bomb, "one alias": "board_id: &id a\nmqtt:\n  prefix: *id\n"} {
		_, err := Parse("t.yaml", []byte(data))
		if want := "config t.yaml:1: YAML anchors and aliases (& and *) are not accepted: write each value out"; err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", name, err, want)
		}
	}
}

// FuzzParse: no input makes decoding or validation panic, and whatever
// Parse accepts, Validate with the st3d cells judges without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "board_id: a\n", "mqtt:\n  listen: 0.0.0.0:1883\n  accounts:\n    - {username: a, role: display, password_hash: \"$2a$04$x\"}\n",
		"a: &a [x]\nb: *a\n", "sensors:\n  wiring:\n    expanders: [{address: 0x20}]\n", "leds:\n  mapping: {driver: none}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yaml", data)
		if err == nil {
			c.Validate(st3d.CellNames())
		}
	})
}

// TestListenAccepted: the hosts a listener may name.
func TestListenAccepted(t *testing.T) {
	for _, addr := range []string{":8080", "localhost:80", "127.0.0.1:0", "[::1]:8080", "[fe80::1%eth0]:80",
		"tridboard.local:8080", "pi-4:1883", "hall.example.org.:1883", "0.0.0.0:8080", "1host:80"} {
		if msg := checkListen(addr); msg != "" {
			t.Errorf("%s: %s", addr, msg)
		}
	}
	for _, addr := range []string{"999.1.1.1:80", "1.2.3:80", "-pi:80", "pi-:80", "a..b:80", "a/b:80", "256.0.0.1:80"} {
		if msg := checkListen(addr); msg == "" {
			t.Errorf("%s accepted", addr)
		}
	}
}
