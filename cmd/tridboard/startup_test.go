package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules/st3d"
)

// Every start-up failure prints one line saying what and where, and exits
// 1 (a runtime failure, which systemd retries) or 2 (a bad configuration,
// which it does not); nothing panics, and no new game is left behind.
func TestStartupFailures(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	matrix, err := os.ReadFile("../../deploy/matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  func(t *testing.T, dir string) []string
		want  string
		where string
		code  int
	}{
		{"I2C off", func(t *testing.T, dir string) []string {
			i2cDevices = filepath.Join(dir, "no-i2c-*")
			return nil
		}, "no I²C bus on this machine", "dtparam=i2c_arm=on", exitFailure},
		{"no such I2C bus", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "i2c-1"), nil, 0o644)
			i2cDevices = filepath.Join(dir, "i2c-*")
			return []string{"--config", writeConfig(t, dir, "i2c:\n  bus: no-such-bus\n")}
		}, `I²C bus "no-such-bus"`, "the buses here are", exitFailure},
		{"broker port taken", func(t *testing.T, dir string) []string {
			return []string{"--sim", "--listen", taken.Addr().String()}
		}, "MQTT broker: " + taken.Addr().String() + " is in use", "--listen ADDR", exitFailure},
		{"web port taken", func(t *testing.T, dir string) []string {
			return []string{"--sim", "--listen", "127.0.0.1:0", "--http", taken.Addr().String()}
		}, "web displays: " + taken.Addr().String() + " is in use", "--http off", exitFailure},
		{"journal's first record damaged", func(t *testing.T, dir string) []string {
			damageJournal(t, dir)
			return []string{"--sim"}
		}, "corrupt in the middle", ".journal", exitFailure},
		{"unknown cell in the wiring", func(t *testing.T, dir string) []string {
			y := strings.Replace(string(matrix), `"a1W"`, `"z9X"`, 1)
			return []string{"--sim", "--config", writeConfig(t, dir, y)}
		}, "z9X", "wiring", exitConfig},
		{"web address not this machine's", func(t *testing.T, dir string) []string {
			return []string{"--sim", "--listen", "127.0.0.1:0", "--http", "192.0.2.1:8080"}
		}, "cannot assign requested address", "web displays: 192.0.2.1:8080", exitFailure},
		{"a key that does not exist", func(t *testing.T, dir string) []string {
			return []string{"--sim", "--config", writeConfig(t, dir, "sensor:\n  period: 5ms\n")}
		}, "sensor", "config.yaml", exitConfig},
		{"listener beyond loopback without a password", func(t *testing.T, dir string) []string {
			return []string{"--sim", "--listen", "0.0.0.0:0"}
		}, "reachable beyond loopback", "0.0.0.0:0", exitConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			defer func(g string) { i2cDevices = g }(i2cDevices)
			// The pages on a free port unless the case says otherwise (the
			// last --http wins): 8080 may be taken on the test machine.
			args := append([]string{"run", "--state-dir", dir, "--http", "127.0.0.1:0"}, tc.args(t, dir)...)
			var stdout, stderr bytes.Buffer
			code := dispatch(args, &stdout, &stderr)
			out := strings.TrimRight(stderr.String(), "\n")
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if games, _ := filepath.Glob(filepath.Join(dir, "games", "*")); len(games) > 0 && tc.name != "journal's first record damaged" {
				t.Errorf("a failed start left %v behind", games)
			}
			if strings.Count(out, "\n") != 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, tc.where) {
				t.Errorf("stderr:\n%s\nwant one line with %q and %q", out, tc.want, tc.where)
			}
		})
	}
}

func writeConfig(t *testing.T, dir, data string) string {
	t.Helper()
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// damageJournal writes a game of three moves in dir and flips a byte of
// its first record, the game's header: a journal damaged further on is
// mended and the daemon starts (TestEndToEndDamagedMiddleRecord); one
// whose header is lost is no game, and the start fails saying where.
func damageJournal(t *testing.T, dir string) {
	t.Helper()
	o := game.DefaultOpts()
	s, err := game.New(dir, st3d.System, "", game.Tags{}, &o)
	if err != nil {
		t.Fatal(err)
	}
	for _, long := range []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"} {
		if _, _, err := s.PlayNotation(long); err != nil {
			t.Fatal(err)
		}
	}
	path := s.Path()
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Byte 20 is inside the first record, the header.
	b[20] ^= 0x5a
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckRefusesWhatRunRefuses (issue 22): config check and run share one
// validation: what run refuses, check refuses with the same line, before
// run opens anything.
func TestCheckRefusesWhatRunRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"CA file missing", "mqtt:\n  broker: tls://hall.example:8883\n  ca_file: " + dir + "/none.pem\n",
			`mqtt.ca_file: CA file: open ` + dir + `/none.pem: no such file or directory`},
		{"state directory cannot be created", "state_dir: " + file + "/state\n",
			`state_dir: "` + file + `/state": cannot be created: stat ` + file + `/state: not a directory`},
		{"web address not an address", "http:\n  listen: 999.1.1.1:8080\n",
			`http.listen: "999.1.1.1:8080": host "999.1.1.1": want an IP address or a host name`},
		{"broker address not an address", "mqtt:\n  listen: 999.1.1.1:1883\n",
			`mqtt.listen: "999.1.1.1:1883": host "999.1.1.1": want an IP address or a host name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, t.TempDir(), tc.yaml)
			code, _, errs := run("config", "check", cfg)
			if code != exitFailure || !strings.Contains(errs, tc.want) {
				// run would start on it: do not run it.
				t.Fatalf("config check: exit %d, stderr %q; want %q", code, errs, tc.want)
			}
			code, _, rerrs := run("run", "--sim", "--config", cfg)
			if code != exitConfig || rerrs != "tridboard: cannot start: "+errs {
				t.Errorf("run: exit %d, stderr %q; want the check's %q", code, rerrs, errs)
			}
		})
	}
}
