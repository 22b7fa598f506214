package setup

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A scan in iw's format (testdata/iw-scan.txt: eleven access points as
// `iw dev wlan0 scan` prints them): one network per name, its strongest
// access point's signal, the security each announces, hidden ones left
// out, iw's escapes undone, strongest first.
func TestParseScan(t *testing.T) {
	f, err := os.Open("testdata/iw-scan.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ParseScan(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Network{
		{"ChessClub", -48, "WPA2", true},              // two access points: the 5 GHz one's -48, not -67
		{"Café de la Tour", -52, "WPA2/WPA3", true},   // PSK and SAE; UTF-8 as \xc3\xa9; "-- associated"
		{` Lounge\5G`, -60, "WPA3", false},            // SAE only; a leading space and a backslash escaped
		{"Town Hall Staff", -70, "enterprise", false}, // IEEE 802.1X
		{"Town Hall Guest", -71, "open", true},        // no Privacy
		{"OldRouter", -80, "WPA2", true},              // RSN and WPA: the better
		{"Attic", -85, "WPA", true},                   // WPA alone
		{"Basement", -88, "WEP", false},               // Privacy, neither RSN nor WPA
	}
	if len(got) != len(want) {
		t.Fatalf("%d networks, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("network %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseScanCases(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       string // "ssid signal security" lines, or the error
	}{
		{"empty", "", ""},
		{"one, open", "BSS 00:11:22:33:44:55(on wlan0)\n\tcapability: ESS (0x0001)\n\tsignal: -40.00 dBm\n\tSSID: a\n", "a -40 open"},
		{"a tie by name", "BSS 1(on wlan0)\n\tsignal: -50.00 dBm\n\tSSID: b\nBSS 2(on wlan0)\n\tsignal: -50.00 dBm\n\tSSID: a\n", "a -50 open\nb -50 open"},
		{"the same name, the weaker later", "BSS 1(on wlan0)\n\tsignal: -30.00 dBm\n\tSSID: a\nBSS 2(on wlan0)\n\tsignal: -70.00 dBm\n\tSSID: a\n", "a -30 open"},
		{"no SSID line", "BSS 1(on wlan0)\n\tsignal: -30.00 dBm\n", ""},
		{"FT with PSK", "BSS 1(on wlan0)\n\tcapability: ESS Privacy (0x0011)\n\tsignal: -30.00 dBm\n\tSSID: a\n\tRSN:\t * Version: 1\n\t\t * Authentication suites: PSK FT/PSK\n", "a -30 WPA2"},
		{"a bad signal", "BSS 1(on wlan0)\n\tsignal: strong\n", "setup: scan line 2: signal \"strong\": not dBm"},
		{"a bad escape", "BSS 1(on wlan0)\n\tSSID: a\\xzz\n", `setup: scan line 2: name "a\\xzz": bad escape "\\xzz"`},
	} {
		nws, err := ParseScan(strings.NewReader(c.text))
		var got []string
		for _, n := range nws {
			got = append(got, n.SSID+" "+strconv.FormatFloat(n.Signal, 'f', -1, 64)+" "+n.Security)
		}
		s := strings.Join(got, "\n")
		if err != nil {
			s = err.Error()
		}
		if s != c.want {
			t.Errorf("%s: %q, want %q", c.name, s, c.want)
		}
	}
}

// GET /setup/networks: the scan's networks and its time; without a scan
// file, the page is told to type the name.
func TestNetworksServed(t *testing.T) {
	o := testOpts(t)
	o.Scan = filepath.Join(t.TempDir(), "scan.txt")
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	if st, m := do(t, srv, "GET", "/setup/networks", "", ""); st != 404 || !strings.Contains(m["reason"], "type the network's name") {
		t.Errorf("no scan: %d %v", st, m)
	}
	b, _ := os.ReadFile("testdata/iw-scan.txt")
	os.WriteFile(o.Scan, b, 0o644)
	at := time.Date(2026, 12, 5, 9, 30, 0, 0, time.UTC)
	os.Chtimes(o.Scan, at, at)
	var got struct {
		Networks []Network
		At       string
	}
	res, err := srv.Client().Get(srv.URL + "/setup/networks")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	json.NewDecoder(res.Body).Decode(&got)
	if st := res.StatusCode; st != 200 || len(got.Networks) != 8 || got.Networks[0].SSID != "ChessClub" || got.At != "2026-12-05T09:30:00Z" {
		t.Errorf("%d %+v", st, got)
	}
}
