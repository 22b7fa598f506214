package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
)

func TestDefaultsDescribeTheReferenceBoard(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Wiring(st3d.CellNames())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w, sets.ReferenceWiring()) {
		t.Errorf("default wiring is not the reference wiring")
	}
	m, l, err := c.LEDMapping(st3d.CellNames())
	if err != nil || m.Driver != "ht16k33" || m.Addr != 0x71 || l.NumLEDs() != 128 {
		t.Errorf("default LEDs: %+v, %v", m, err)
	}
	if c.Sensors.Period != 5*time.Millisecond || c.MQTT.Listen != "127.0.0.1:1883" || c.MQTT.Prefix != "tridboard" {
		t.Errorf("defaults: %+v", c)
	}
	if c.Game.Play != "casual" {
		t.Errorf("game.play %q, want casual: a set on its own forgives", c.Game.Play)
	}
}

func TestExampleFiles(t *testing.T) {
	for _, tc := range []struct {
		file   string
		wiring *sensors.Wiring
		driver string
	}{
		{"../deploy/reference.yaml", sets.ReferenceWiring("queen", "rook", "bishop", "knight"), "ht16k33"},
		{"../deploy/matrix.yaml", sets.MatrixWiring("queen", "knight"), "ht16k33"},
		{"../deploy/apa102.yaml", sets.ReferenceWiring(), "apa102"},
		{"../deploy/tridboard.yaml", sets.ReferenceWiring(), "ht16k33"},
	} {
		c, err := Load(tc.file)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		w, err := c.Wiring(st3d.CellNames())
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if !reflect.DeepEqual(w, tc.wiring) {
			t.Errorf("%s: wiring differs from the one it documents", tc.file)
		}
		m, _, err := c.LEDMapping(st3d.CellNames())
		if err != nil || m.Driver != tc.driver {
			t.Errorf("%s: LEDs %v, %v; want %s", tc.file, m, err, tc.driver)
		}
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"unknown key", "board_id: a\nsensors:\n  perod: 5ms\n", `config t.yaml:3: sensors.perod: no such setting; did you mean "sensors.period"?`},
		{"not a duration", "sensors:\n  period: fast\n", `config t.yaml:2: sensors.period: "fast" is not a duration`},
		{"out of range", "recognition:\n  settle: 10s\n", "config t.yaml:2: recognition.settle: 10s: want 1ms to 5s"},
		{"wrong type", "i2c:\n  speed_hz: fast\n", "config t.yaml:2: i2c.speed_hz: cannot unmarshal string"},
		{"bad log level", "log_level: loud\n", `config t.yaml:1: log_level: log level "loud"`},
		{"bad board id", "board_id: a/b\n", `config t.yaml:1: board_id: "a/b"`},
		{"preset and table", "sensors:\n  preset: matrix\n  wiring: {expanders: []}\n", `config t.yaml:2: sensors.preset: "matrix" and a wiring table`},
		{"bad preset", "sensors:\n  preset: mine\n", `config t.yaml:2: sensors.preset: "mine": want one of reference, matrix, millennium-matrix, millennium-direct, firstcontact, firstcontact-matrix, firstcontact-up`},
		{"button name", "buttons:\n  queen: q\n", `config t.yaml:2: buttons.queen: "q": a button's cell name starts with "button:"`},
		{"half a client certificate", "mqtt:\n  cert_file: c.pem\n", "config t.yaml:2: mqtt.cert_file: cert_file and key_file go together"},
		{"unknown variant", "variant: chess\n", `config t.yaml:1: variant: unknown variant "chess"`},
		{"options of a system without", "variant: millennium\noptions: V.A1\n", `options: variant millennium has no options`},
		{"unknown option", "options: V.Z9\n", `config t.yaml:1: options: st3d options: unknown option "V.Z9"`},
		{"settle_extended below settle", "recognition:\n  settle: 500ms\n", "config t.yaml:2: recognition.settle_extended: 400ms: want 500ms to 5s"},
	} {
		_, err := Parse("t.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestWiringRefusedWithCells(t *testing.T) {
	c, err := Parse("t.yaml", []byte("sensors:\n  preset: \"\"\n  wiring:\n    expanders:\n      - {address: 0x20, mode: direct, cells: [{cell: a1W, bit: 0}, {cell: b1W, bit: 0}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wiring(st3d.CellNames()); err == nil || !strings.Contains(err.Error(), "wired twice") {
		t.Errorf("duplicate bit: err = %v", err)
	}
}

func TestButtonsMustBeWired(t *testing.T) {
	c, err := Parse("t.yaml", []byte("buttons:\n  queen: \"button:queen\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Wiring(st3d.CellNames())
	if err != nil || len(w.Buttons()) != 1 || w.Buttons()[0] != "button:queen" {
		t.Fatalf("preset with a button: %v, %v", w.Buttons(), err)
	}
	c, err = Parse("t.yaml", []byte("buttons:\n  queen: \"button:queen\"\nsensors:\n  preset: \"\"\n  wiring:\n    expanders:\n      - {address: 0x20, mode: direct, cells: [{cell: a1W, bit: 0}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wiring([]string{"a1W"}); err == nil || !strings.Contains(err.Error(), `"button:queen" is not wired`) {
		t.Errorf("unwired button: err = %v", err)
	}
}

func TestSecretsFromTheEnvironment(t *testing.T) {
	t.Setenv("TRIDBOARD_MQTT_PASSWORD", "s3cret")
	t.Setenv("TRIDBOARD_MQTT_COMMAND_TOKEN", "tok")
	path := filepath.Join(t.TempDir(), "t.yaml")
	os.WriteFile(path, []byte("mqtt:\n  username: board\n"), 0o644)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.MQTT.Password != "s3cret" || c.MQTT.CommandToken != "tok" {
		t.Errorf("secrets: %q %q", c.MQTT.Password, c.MQTT.CommandToken)
	}
}

func TestStateDirFromSystemd(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "/var/lib/tridboard:/other")
	if got := DefaultStateDir(); got != "/var/lib/tridboard" {
		t.Errorf("DefaultStateDir() = %q", got)
	}
}

// TestSectionOfAPackage: a section a package owns (recognition:
// recognize.Opts) reads its durations, keeps the defaults of what the file
// leaves out and of what is not a duration, and reports each bad value
// once, with its key, line and fix, as the sections config declares do.
func TestSectionOfAPackage(t *testing.T) {
	c, err := Parse("t.yaml", []byte("recognition:\n  settle: 250ms # shorter\n  take_backs: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := recognize.DefaultOpts()
	want.Settle, want.TakeBacks = 250*time.Millisecond, false
	if c.Recognition != want {
		t.Errorf("recognition %+v, want %+v", c.Recognition, want)
	}
	for _, tc := range []struct{ name, yaml, want string }{
		{"not a duration, with a comment", "recognition:\n  settle: soon # a comment\n",
			`config t.yaml:2: recognition.settle: "soon" is not a duration (such as 5ms or 1.5s)`},
		{"quoted", "recognition:\n  correction: \"later\"\n",
			`config t.yaml:2: recognition.correction: "later" is not a duration (such as 5ms or 1.5s)`},
		{"a number without its unit", "recognition:\n  mismatch_after: 5\n",
			`config t.yaml:2: recognition.mismatch_after: "5" is not a duration (such as 5ms or 1.5s)`},
		{"out of range", "recognition:\n  correction: 2m\n",
			"config t.yaml:2: recognition.correction: 2m0s: want 0s to 1m0s"},
		{"a setting that is not one", "recognition:\n  skew: 5ms\n",
			`config t.yaml:2: recognition.skew: no such setting`},
	} {
		_, err := Parse("t.yaml", []byte(tc.yaml))
		if err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: more than one problem: %v", tc.name, err)
		}
	}
}

// TestMQTTSectionComposed: the mqtt section's keys, as users write them,
// land in the client's settings (mqtt.Opts) and the embedded broker's
// (broker.Settings), the defaults kept where the file says nothing.
func TestMQTTSectionComposed(t *testing.T) {
	c, err := Decode("t.yaml", []byte(`mqtt:
  listen: 0.0.0.0:1884
  websocket: 127.0.0.1:9001
  username: board
  password: pw
  prefix: hall/sets
  command_token: tok
  remote_grace: 30s
  tls: {cert_file: c.pem, key_file: k.pem}
  accounts:
    - {username: wall, role: display, password_env: WALL_PW}
  limits:
    max_queued: 100
    session_expiry: 24h
`))
	if err != nil {
		t.Fatal(err)
	}
	m := c.MQTT
	if m.Broker != "" || m.Username != "board" || m.Password != "pw" || m.Prefix != "hall/sets" ||
		m.Discovery != "homeassistant" || m.CommandToken != "tok" || m.Grace != 30*time.Second {
		t.Errorf("client settings: %+v", m.Opts)
	}
	if m.Listen != "0.0.0.0:1884" || m.WebSocket != "127.0.0.1:9001" || m.TLS.CertFile != "c.pem" || m.TLS.KeyFile != "k.pem" ||
		len(m.Accounts) != 1 || m.Accounts[0].Username != "wall" || m.Accounts[0].PasswordEnv != "WALL_PW" ||
		m.Limits.MaxQueued != 100 || m.Limits.SessionExpiry != 24*time.Hour || m.Limits.MaxSessions != 0 {
		t.Errorf("broker settings: %+v", m.Settings)
	}
	if d := Default().MQTT; d.Broker != "" || d.Listen != "127.0.0.1:1883" || d.Prefix != "tridboard" {
		t.Errorf("defaults: broker %q listen %q prefix %q", d.Broker, d.Listen, d.Prefix)
	}
}
