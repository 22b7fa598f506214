package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/sensors"
)

// writeConfig writes a configuration file whose state_dir is dir.
func writeConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte("state_dir: "+dir+"\nboard_id: from-file\nvariant: st3d\nmqtt:\n  command_token: file-token\n"+extra), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSetupOverTheFileAndTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TRIDBOARD_MQTT_COMMAND_TOKEN", "env-token")
	path := writeConfig(t, dir, "")
	w := &sensors.Wiring{Expanders: []sensors.Expander{{Address: 0x20, Mode: sensors.Direct,
		Cells: []sensors.Wire{{Cell: "a1", Bit: 0}}}}}
	if err := WriteSetup(dir, Setup{BoardID: "Table 3", Variant: "first-contact", CommandToken: "page-token", Wiring: w}); err != nil {
		t.Fatal(err)
	}
	c, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.BoardID != "Table 3" || c.Variant != "first-contact" || c.MQTT.CommandToken != "page-token" || c.Sensors.Preset != "" {
		t.Errorf("board %q variant %q token %q preset %q: want the setup page's", c.BoardID, c.Variant, c.MQTT.CommandToken, c.Sensors.Preset)
	}
	if c.Sensors.Wiring == nil || len(c.Sensors.Wiring.Expanders) != 1 || c.Sensors.Wiring.Expanders[0].Cells[0].Cell != "a1" {
		t.Errorf("wiring %+v: want the learned one", c.Sensors.Wiring)
	}
	st, err := os.Stat(filepath.Join(dir, SetupName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("setup.yaml: %v, mode %v: want 0600 (it holds the token)", err, st.Mode().Perm())
	}
}

func TestSetupEmptyValuesKeepTheConfiguration(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "")
	if err := WriteSetup(dir, Setup{BoardID: "only-the-name"}); err != nil {
		t.Fatal(err)
	}
	c, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.BoardID != "only-the-name" || c.Variant != "st3d" || c.MQTT.CommandToken != "file-token" || c.Sensors.Preset != "reference" {
		t.Errorf("got board %q variant %q token %q preset %q", c.BoardID, c.Variant, c.MQTT.CommandToken, c.Sensors.Preset)
	}
}

func TestSetupRefusedWritesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Setup
		want string
	}{
		{"topic wildcard in the name", Setup{BoardID: "a/b"}, "board_id"},
		{"spaces around the name", Setup{BoardID: " x"}, "board_id"},
		{"name too long", Setup{BoardID: strings.Repeat("x", 64)}, "board_id"},
		{"unknown system", Setup{Variant: "go"}, "variant"},
		{"unknown option", Setup{Variant: "st3d", Options: "V.Z9"}, "variant"},
		{"options alone", Setup{Options: "V.A1"}, "without a variant"},
		{"token with spaces", Setup{CommandToken: "tok "}, "command_token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := WriteSetup(dir, tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("WriteSetup(%+v) = %v, want an error about %s", tc.s, err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, SetupName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused setup left a file: %v", err)
			}
		})
	}
}

func TestSetupFileBrokenNamesItself(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "")
	if err := os.WriteFile(filepath.Join(dir, SetupName), []byte("board_id: x\nlisten: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, SetupName)) {
		t.Fatalf("Read with an unknown key in setup.yaml = %v, want an error naming the file", err)
	}
}

func TestSetupBadValueReportedUnderItsFile(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "")
	// Written by hand (WriteSetup would refuse it).
	if err := os.WriteFile(filepath.Join(dir, SetupName), []byte("variant: chess\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps Problems
	if !errors.As(c.Validate(nil), &ps) || len(ps) != 1 {
		t.Fatalf("Validate = %v, want one problem", c.Validate(nil))
	}
	if ps[0].File != filepath.Join(dir, SetupName) || ps[0].Key != "variant" || ps[0].Line != 0 {
		t.Errorf("problem %+v: want variant in %s", ps[0], filepath.Join(dir, SetupName))
	}
}

func TestUpdateSetupKeepsTheOtherValues(t *testing.T) {
	dir := t.TempDir()
	if err := UpdateSetup(dir, func(s *Setup) error { s.BoardID = "hall-1"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := UpdateSetup(dir, func(s *Setup) error { s.Variant = "millennium"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := UpdateSetup(dir, func(s *Setup) error { s.BoardID = "bad/name"; return nil }); err == nil {
		t.Fatal("a refused update was taken")
	}
	stop := errors.New("changed my mind")
	if err := UpdateSetup(dir, func(s *Setup) error { s.BoardID = "other"; return stop }); !errors.Is(err, stop) {
		t.Fatalf("UpdateSetup = %v, want the change's own error", err)
	}
	s, err := ReadSetup(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s != (Setup{BoardID: "hall-1", Variant: "millennium"}) {
		t.Errorf("setup.yaml holds %+v, want both updates and nothing of the refused ones", s)
	}
}

func TestSetupOfAStateDirThatCannotBeUsedLeftToValidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte("state_dir: "+file+"/state\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Read(path)
	if err != nil {
		t.Fatalf("Read = %v, want the state directory left to Validate", err)
	}
	if err := c.Validate(nil); err == nil || !strings.Contains(err.Error(), "state_dir") {
		t.Errorf("Validate = %v, want the state directory refused", err)
	}
}
