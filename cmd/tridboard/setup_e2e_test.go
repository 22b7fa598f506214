package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/setup"
)

// The daemon serves the setup page beside its boards: on the card image
// (hotspot.conf, tridboard-wifi.path) the access point shows on the set's
// own screen (loopback) and the venue's Wi-Fi, with the command token,
// lands in <state>/wifi for tridboard-wifi; off the image the form is
// refused and nothing is written. (Not parallel: it sets the paths.)
func TestDaemonServesTheSetupPage(t *testing.T) {
	dir := t.TempDir()
	oldConf, oldUnit := hotspotConf, wifiPathUnit
	t.Cleanup(func() { hotspotConf, wifiPathUnit = oldConf, oldUnit })
	hotspotConf, wifiPathUnit = filepath.Join(dir, "hotspot.conf"), filepath.Join(dir, "tridboard-wifi.path")
	os.WriteFile(hotspotConf, []byte("ssid=tridboard-ab12\npsk=0123456789abcdef\n"), 0o640)
	os.WriteFile(wifiPathUnit, nil, 0o644)
	state := t.TempDir()
	d, _, _ := startInProcess(t, func(c *config.Config) { c.MQTT.CommandToken, c.StateDir = "tok-9", state })

	call := func(method, path, token, body string) (int, string) {
		req, _ := http.NewRequest(method, d.webURL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, body := call("GET", "setup", "", ""); st != 200 || !strings.Contains(body, "Set up this tridboard") {
		t.Fatalf("GET /setup: %d %.100s", st, body)
	}
	st, body := call("GET", "setup/hotspot", "", "")
	var h map[string]string
	json.Unmarshal([]byte(body), &h)
	if st != 200 || h["uri"] != "WIFI:T:WPA;S:tridboard-ab12;P:0123456789abcdef;;" {
		t.Errorf("GET /setup/hotspot on loopback: %d %s", st, body)
	}
	spool := filepath.Join(state, "wifi", setup.SpoolName)
	if st, body := call("POST", "setup/wifi", "tok-8", `{"ssid":"Hall","psk":"secret123","country":"GB"}`); st != 401 {
		t.Errorf("a wrong token: %d %s", st, body)
	}
	if _, err := os.Stat(spool); err == nil {
		t.Fatal("written with a wrong token")
	}
	if st, body := call("POST", "setup/wifi", "tok-9", `{"ssid":"Hall","psk":"secret123","country":"GB"}`); st != 200 {
		t.Fatalf("the venue's Wi-Fi: %d %s", st, body)
	}
	if b, _ := os.ReadFile(spool); string(b) != "ssid=Hall\npsk=secret123\ncountry=GB\n" {
		t.Errorf("spool %q", b)
	}
	// The boards' pages still answer beside it.
	if st, _ := call("GET", "boards/unit", "", ""); st != 200 {
		t.Errorf("GET /boards/unit: %d", st)
	}
}

// Off the card image (no tridboard-wifi.path) nothing would read the
// spool: the form says so and writes nothing.
func TestSetupWifiOffTheImage(t *testing.T) {
	dir := t.TempDir()
	oldUnit := wifiPathUnit
	t.Cleanup(func() { wifiPathUnit = oldUnit })
	wifiPathUnit = filepath.Join(dir, "none.path")
	o := setupOpts(dir, "tok-9")
	if o.SpoolDir != "" {
		t.Errorf("spool %q without the path unit", o.SpoolDir)
	}
	os.WriteFile(wifiPathUnit, nil, 0o644)
	if o := setupOpts(dir, "tok-9"); o.SpoolDir != filepath.Join(dir, "wifi") || o.Hotspot != hotspotConf || o.Token != "tok-9" {
		t.Errorf("on the image: %+v", o)
	}
}
