package setup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestURIEscapes(t *testing.T) {
	for _, c := range []struct{ ssid, psk, want string }{
		{"tridboard-3f2a", "9c41d2a07be6f318", "WIFI:T:WPA;S:tridboard-3f2a;P:9c41d2a07be6f318;;"},
		{`a;b`, `c,d`, `WIFI:T:WPA;S:a\;b;P:c\,d;;`},
		{`x:y`, `"q"`, `WIFI:T:WPA;S:x\:y;P:\"q\";;`},
		{`back\slash`, `\;,:"`, `WIFI:T:WPA;S:back\\slash;P:\\\;\,\:\";;`},
		{"café hall", "pass word", "WIFI:T:WPA;S:café hall;P:pass word;;"},
	} {
		if got := (Hotspot{c.ssid, c.psk}).URI(); got != c.want {
			t.Errorf("URI(%q, %q) = %q, want %q", c.ssid, c.psk, got, c.want)
		}
	}
}

func TestReadHotspot(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		want       Hotspot
		err        string
	}{
		{"ok", "ssid=tridboard-3f2a\npsk=9c41d2a07be6f318\n", Hotspot{"tridboard-3f2a", "9c41d2a07be6f318"}, ""},
		{"crlf and country", "ssid=s1\r\npsk=p1234567\r\ncountry=GB\r\n", Hotspot{"s1", "p1234567"}, ""},
		{"no psk", "ssid=s1\n", Hotspot{}, "no ssid= or psk= line"},
	} {
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, []byte(c.text), 0o600)
		h, err := ReadHotspot(p)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || h != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, h, err, c.want)
		}
	}
	if _, err := ReadHotspot(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestVenueCheck(t *testing.T) {
	for _, c := range []struct {
		v    Venue
		want string // "" valid, else part of the error
	}{
		{Venue{"Hall", "secret123", "GB"}, ""},
		{Venue{"Open hall", "", "DE"}, ""},
		{Venue{"", "secret123", "GB"}, "name is empty"},
		{Venue{strings.Repeat("x", 33), "secret123", "GB"}, "33 bytes long"},
		{Venue{"two\nlines", "secret123", "GB"}, "control character"},
		{Venue{"Hall", "short", "GB"}, "5 characters long"},
		{Venue{"Hall", strings.Repeat("p", 64), "GB"}, "64 characters long"},
		{Venue{"Hall", "pässword1", "GB"}, "printable ASCII"},
		{Venue{"Hall", "secret123", "gb"}, `country "gb"`},
		{Venue{"Hall", "secret123", ""}, `country ""`},
		{Venue{"Hall", "secret123", "GBR"}, `country "GBR"`},
	} {
		err := c.v.Check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.v, err, c.want)
		}
	}
}

func TestSpoolWritesTheFileTridboardWifiReads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wifi")
	p, err := Spool(dir, Venue{"Hall; 2", "se=cret 12", "GB"})
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, SpoolName) {
		t.Errorf("path %s", p)
	}
	b, _ := os.ReadFile(p)
	if want := "ssid=Hall; 2\npsk=se=cret 12\ncountry=GB\n"; string(b) != want {
		t.Errorf("file %q, want %q", b, want)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 (it holds a password)", fi.Mode().Perm())
	}
	// An open network: no psk= line (tridboard-wifi then writes key_mgmt=NONE).
	Spool(dir, Venue{"Open", "", "DE"})
	if b, _ := os.ReadFile(p); string(b) != "ssid=Open\ncountry=DE\n" {
		t.Errorf("open network: %q", b)
	}
	// Bad input changes nothing, and no temporary file stays.
	if _, err := Spool(dir, Venue{"Hall", "short", "DE"}); err == nil {
		t.Fatal("a 5-character password was spooled")
	}
	if b, _ := os.ReadFile(p); string(b) != "ssid=Open\ncountry=DE\n" {
		t.Errorf("after bad input: %q", b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d files in the spool, want 1", len(es))
	}
}

func TestQRSVG(t *testing.T) {
	s, err := QRSVG("WIFI:T:WPA;S:tridboard-3f2a;P:9c41d2a07be6f318;;")
	if err != nil {
		t.Fatal(err)
	}
	// 48 bytes at level M: version 4 (3-M holds 42), 33 modules, and 4 of quiet zone each side.
	if !strings.HasPrefix(s, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 41 41"`) || !strings.HasSuffix(s, `"/></svg>`) {
		t.Errorf("svg %.120s", s)
	}
	// The finder pattern's top-left module is dark.
	if !strings.Contains(s, `d="M4 4h1v1h-1z`) {
		t.Errorf("no dark module at the top-left finder: %.200s", s)
	}
}
