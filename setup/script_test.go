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

// Each card flashed from one image its own command token: the token the
// package made at the build is forgotten (setup.sh runs "tridboard-token
// forget"), and the first boot of each card makes a new one (36 hex
// digits, the file readable by root only), which later boots keep; a
// token given to the build is not forgotten by a boot.
func TestEachCardItsOwnToken(t *testing.T) {
	script, err := filepath.Abs("../deploy/image/rootfs/tridboard-token")
	if err != nil {
		t.Fatal(err)
	}
	run := func(env string, args ...string) {
		t.Helper()
		cmd := exec.Command("sh", append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "TRIDBOARD_ENV="+env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tridboard-token %v: %v %s", args, err, out)
		}
	}
	token := func(env string) string {
		b, _ := os.ReadFile(env)
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "TRIDBOARD_MQTT_COMMAND_TOKEN="); ok {
				return v
			}
		}
		return ""
	}
	dir := t.TempDir()
	image := filepath.Join(dir, "image.env")
	const pkg = "TRIDBOARD_MQTT_PASSWORD=secret\nTRIDBOARD_MQTT_COMMAND_TOKEN=0123456789abcdef0123456789abcdef0123\n"
	os.WriteFile(image, []byte(pkg), 0o600)
	run(image, "forget")
	if b, _ := os.ReadFile(image); string(b) != "TRIDBOARD_MQTT_PASSWORD=secret\n" {
		t.Fatalf("the image's file after forget: %q", b)
	}
	var tokens []string
	for _, card := range []string{"card-1.env", "card-2.env"} {
		env := filepath.Join(dir, card)
		b, _ := os.ReadFile(image)
		os.WriteFile(env, b, 0o600) // flashed
		run(env)                    // the first boot
		tok := token(env)
		if len(tok) != 36 || strings.Trim(tok, "0123456789abcdef") != "" {
			t.Errorf("%s: token %q, want 36 hex digits", card, tok)
		}
		if fi, _ := os.Stat(env); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", card, fi.Mode().Perm())
		}
		run(env) // the second boot keeps it
		if token(env) != tok {
			t.Errorf("%s: the second boot changed the token", card)
		}
		if b, _ := os.ReadFile(env); !strings.HasPrefix(string(b), "TRIDBOARD_MQTT_PASSWORD=secret\n") {
			t.Errorf("%s: the other lines: %q", card, b)
		}
		tokens = append(tokens, tok)
	}
	if tokens[0] == tokens[1] {
		t.Errorf("two cards share the token %s", tokens[0])
	}
	// A token given to the build: a boot keeps it.
	given := filepath.Join(dir, "given.env")
	os.WriteFile(given, []byte("TRIDBOARD_MQTT_COMMAND_TOKEN=from-the-build-0001\n"), 0o600)
	run(given)
	if token(given) != "from-the-build-0001" {
		t.Errorf("the build's token became %q", token(given))
	}
	// No file at all (a package that made none): the boot makes it.
	none := filepath.Join(dir, "none.env")
	run(none)
	if len(token(none)) != 36 {
		t.Errorf("no file: token %q", token(none))
	}
	// setup.sh forgets the package's token after installing it, unless
	// the build was given one, and enables the boot's unit.
	b, _ := os.ReadFile("../deploy/image/rootfs/setup.sh")
	s := string(b)
	inst, forget := strings.Index(s, `apt-get install -y --no-install-recommends "/tmp/$deb"`), strings.Index(s, `[ -n "$token" ] || /usr/local/sbin/tridboard-token forget`)
	if inst < 0 || forget < inst || !strings.Contains(s, "systemctl enable tridboard-token.service") {
		t.Errorf("setup.sh: install at %d, forget at %d", inst, forget)
	}
}

// The image's tridboard-scan writes what iw prints where the daemon reads
// it, whole (a temporary file renamed), readable by the daemon's user; a
// scan that fails (the chip busy) or prints nothing keeps the last one.
func TestTridboardScanFeedsTheForm(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	sample, _ := filepath.Abs("testdata/iw-scan.txt")
	// iw: the sample for "dev wlan0 scan", or fails when told to.
	os.WriteFile(filepath.Join(bin, "iw"), []byte("#!/bin/sh\n[ -e \"$(dirname \"$0\")/fail\" ] && exit 240\n[ \"$*\" = 'dev wlan0 scan' ] && cat '"+sample+"'\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "ip"), []byte("#!/bin/sh\n"), 0o755)
	script, _ := filepath.Abs("../deploy/image/rootfs/tridboard-scan")
	out := filepath.Join(dir, "scan.txt")
	run := func() {
		t.Helper()
		cmd := exec.Command("sh", script)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "TRIDBOARD_SCAN="+out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tridboard-scan: %v %s", err, b)
		}
	}
	run()
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	nws, err := ParseScan(f)
	f.Close()
	if err != nil || len(nws) != 8 || nws[0].SSID != "ChessClub" {
		t.Fatalf("the daemon reads %+v, %v", nws, err)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	os.WriteFile(filepath.Join(bin, "fail"), nil, 0o644)
	run()
	if b, _ := os.ReadFile(out); len(b) == 0 {
		t.Error("a failed scan lost the last one")
	}
	if _, err := os.Stat(out + ".new"); err == nil {
		t.Error("a temporary file stays")
	}
	// tridboard-hotspot scans before it opens the access point.
	hs, _ := os.ReadFile("../deploy/image/rootfs/tridboard-hotspot")
	if i, j := strings.Index(string(hs), "tridboard-scan"), strings.Index(string(hs), "exec hostapd"); i < 0 || j < i {
		t.Errorf("tridboard-hotspot: scan at %d, hostapd at %d", i, j)
	}
}

// The image's tridboard-portal: started with the access point, the
// phones' probe names resolve to the set (a marked block of the hosts
// file, which systemd-resolved answers from on the access point's
// address) and its port 80 is relayed to the pages; started twice, one
// block; stopped, the hosts file is as it was, byte for byte.
func TestTridboardPortalStartsAndStops(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "systemctl"), []byte("#!/bin/sh\necho \"$*\" >>\"$(dirname \"$0\")/systemctl.log\"\n"), 0o755)
	script, _ := filepath.Abs("../deploy/image/rootfs/tridboard-portal")
	hosts := filepath.Join(dir, "hosts")
	const before = "127.0.0.1\tlocalhost\n127.0.1.1\ttridboard\n::1\t\tlocalhost ip6-localhost ip6-loopback\n"
	os.WriteFile(hosts, []byte(before), 0o644)
	resolved := filepath.Join(dir, "resolved.conf.d")
	run := func(arg string) {
		t.Helper()
		cmd := exec.Command("sh", script, arg)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "TRIDBOARD_HOSTS="+hosts, "TRIDBOARD_RESOLVED_DIR="+resolved)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tridboard-portal %s: %v %s", arg, err, out)
		}
	}
	run("start")
	run("start")
	b, _ := os.ReadFile(hosts)
	if !strings.HasPrefix(string(b), before) || strings.Count(string(b), "(begin)") != 1 {
		t.Fatalf("hosts after start:\n%s", b)
	}
	for _, name := range []string{"connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com", "detectportal.firefox.com"} {
		if !strings.Contains(string(b), "\n192.168.4.1\t") || !strings.Contains(string(b), name) {
			t.Errorf("hosts lacks %s:\n%s", name, b)
		}
	}
	if d, _ := os.ReadFile(filepath.Join(resolved, "tridboard-portal.conf")); string(d) != "[Resolve]\nDNSStubListenerExtra=192.168.4.1\n" {
		t.Errorf("resolved's drop-in %q", d)
	}
	run("stop")
	if b, _ := os.ReadFile(hosts); string(b) != before {
		t.Errorf("hosts after stop:\n%q\nwant\n%q", b, before)
	}
	if _, err := os.Stat(filepath.Join(resolved, "tridboard-portal.conf")); err == nil {
		t.Error("resolved's drop-in stays")
	}
	log, _ := os.ReadFile(filepath.Join(bin, "systemctl.log"))
	if want := "try-restart systemd-resolved.service\nstart tridboard-portal.socket\n"; !strings.HasPrefix(string(log), want) ||
		!strings.HasSuffix(string(log), "stop tridboard-portal.socket tridboard-portal.service\ntry-restart systemd-resolved.service\n") {
		t.Errorf("systemctl was asked:\n%s", log)
	}
	// The access point's DHCP names the set as the phones' DNS, and
	// tridboard-hotspot starts and stops the portal with it.
	hs, _ := os.ReadFile("../deploy/image/rootfs/tridboard-hotspot")
	for _, s := range []string{"EmitDNS=yes\nDNS=192.168.4.1\n", "tridboard-portal start", "tridboard-portal stop"} {
		if !strings.Contains(string(hs), s) {
			t.Errorf("tridboard-hotspot lacks %q", s)
		}
	}
	// The relay's target is the pages' address on the access point, where
	// the daemon trusts nothing of a visitor at the set's own address.
	svc, _ := os.ReadFile("../deploy/image/rootfs/tridboard-portal.service")
	if !strings.Contains(string(svc), "systemd-socket-proxyd 192.168.4.1:8080\n") {
		t.Errorf("tridboard-portal.service:\n%s", svc)
	}
}
