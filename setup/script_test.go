package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The spool file is what the card image's tridboard-wifi reads: run on
// it (with wpa_passphrase and systemctl stood in for, which record what
// they are given, and the configuration written to a temporary file), it
// writes the venue's name, password and country into wpa_supplicant's
// configuration, deletes the file, and starts wpa_supplicant.
func TestSpoolIsWhatTridboardWifiReads(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	// wpa_passphrase's output, with its arguments as they arrived in place of the key.
	os.WriteFile(filepath.Join(bin, "wpa_passphrase"), []byte("#!/bin/sh\nprintf 'network={\\n\\tssid=\"%s\"\\n\\t#psk=\"%s\"\\n\\tpsk=KEY[%s][%s]\\n}\\n' \"$1\" \"$2\" \"$1\" \"$2\"\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "systemctl"), []byte("#!/bin/sh\necho \"$*\" >>\"$(dirname \"$0\")/systemctl.log\"\n"), 0o755)
	script, err := filepath.Abs("../deploy/image/rootfs/tridboard-wifi")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    Venue
		want string
	}{
		{Venue{`Hall; 2 "east"`, `se=cret 12\x`, "GB"}, "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\nupdate_config=1\ncountry=GB\n" +
			"network={\n\tssid=\"Hall; 2 \"east\"\"\n\tpsk=KEY[Hall; 2 \"east\"][se=cret 12\\x]\n}\n"},
		{Venue{"Open hall", "", "DE"}, "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\nupdate_config=1\ncountry=DE\n" +
			"network={\n\tssid=\"Open hall\"\n\tkey_mgmt=NONE\n}\n"},
	} {
		spool, err := Spool(filepath.Join(dir, "wifi"), c.v)
		if err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "wpa_supplicant-wlan0.conf")
		cmd := exec.Command("sh", script, spool)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "TRIDBOARD_WPA_CONF="+conf)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tridboard-wifi: %v %s", err, out)
		}
		if b, _ := os.ReadFile(conf); string(b) != c.want {
			t.Errorf("%+v: wpa_supplicant's configuration\n%s\nwant\n%s", c.v, b, c.want)
		}
		if _, err := os.Stat(spool); err == nil {
			t.Errorf("%+v: the spool file (a password) stays", c.v)
		}
	}
	log, _ := os.ReadFile(filepath.Join(bin, "systemctl.log"))
	if !strings.Contains(string(log), "enable wpa_supplicant@wlan0.service\nstop --no-block tridboard-hotspot.service\nstart --no-block wpa_supplicant@wlan0.service\n") {
		t.Errorf("systemctl was asked:\n%s", log)
	}
}
