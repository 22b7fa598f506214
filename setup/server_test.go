package setup

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testOpts(t *testing.T) Opts {
	dir := t.TempDir()
	hs := filepath.Join(dir, "hotspot.conf")
	os.WriteFile(hs, []byte("ssid=tridboard-3f2a\npsk=9c41d2a07be6f318\n"), 0o640)
	return Opts{Hotspot: hs, SpoolDir: filepath.Join(dir, "wifi"), Token: "tok-1"}
}

func do(t *testing.T, srv *httptest.Server, method, path, token, body string) (int, map[string]string) {
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]string
	json.NewDecoder(res.Body).Decode(&m)
	return res.StatusCode, m
}

// The access point's password: on the open addresses without the token,
// elsewhere only with it.
func TestHotspotShownOnTheSetsNetworkOrWithTheToken(t *testing.T) {
	o := testOpts(t)
	closed := httptest.NewServer(Handler(o))
	defer closed.Close()
	for _, c := range []struct {
		token string
		want  int
	}{{"", 401}, {"wrong", 401}, {"tok-1", 200}} {
		st, m := do(t, closed, "GET", "/setup/hotspot", c.token, "")
		if st != c.want {
			t.Errorf("token %q: %d %v, want %d", c.token, st, m, c.want)
		}
		if st == 200 && (m["ssid"] != "tridboard-3f2a" || m["psk"] != "9c41d2a07be6f318" ||
			m["uri"] != "WIFI:T:WPA;S:tridboard-3f2a;P:9c41d2a07be6f318;;" || !strings.HasPrefix(m["svg"], "<svg")) {
			t.Errorf("hotspot %v", m)
		}
		if st != 200 && m["psk"] != "" {
			t.Errorf("the password leaked: %v", m)
		}
	}
	o.Open = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	open := httptest.NewServer(Handler(o))
	defer open.Close()
	if st, m := do(t, open, "GET", "/setup/hotspot", "", ""); st != 200 || m["psk"] != "9c41d2a07be6f318" {
		t.Errorf("on an open address: %d %v", st, m)
	}
	o.Hotspot = filepath.Join(t.TempDir(), "none")
	none := httptest.NewServer(Handler(o))
	defer none.Close()
	if st, m := do(t, none, "GET", "/setup/hotspot", "tok-1", ""); st != 404 || !strings.Contains(m["reason"], "no access point") {
		t.Errorf("no hotspot.conf: %d %v", st, m)
	}
}

func TestWifiNeedsTheTokenAndGoodInput(t *testing.T) {
	o := testOpts(t)
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	spool := filepath.Join(o.SpoolDir, SpoolName)
	for _, c := range []struct {
		name, token, body string
		want              int
		reason            string
	}{
		{"no token", "", `{"ssid":"Hall","psk":"secret123","country":"GB"}`, 401, "token"},
		{"wrong token", "nope", `{"ssid":"Hall","psk":"secret123","country":"GB"}`, 401, "token"},
		{"not JSON", "tok-1", `ssid=Hall`, 400, "malformed"},
		{"unknown field", "tok-1", `{"ssid":"Hall","psk":"secret123","country":"GB","x":1}`, 400, "malformed"},
		{"short password", "tok-1", `{"ssid":"Hall","psk":"short","country":"GB"}`, 400, "5 characters long"},
		{"two faults", "tok-1", `{"ssid":"","psk":"short","country":"GB"}`, 400, "name is empty; the password is 5"},
		{"bad country", "tok-1", `{"ssid":"Hall","psk":"secret123","country":"Britain"}`, 400, "two capital letters"},
	} {
		st, m := do(t, srv, "POST", "/setup/wifi", c.token, c.body)
		if st != c.want || !strings.Contains(m["reason"], c.reason) {
			t.Errorf("%s: %d %v, want %d %q", c.name, st, m, c.want, c.reason)
		}
		if _, err := os.Stat(spool); err == nil {
			t.Fatalf("%s: the spool file was written", c.name)
		}
	}
	st, m := do(t, srv, "POST", "/setup/wifi", "tok-1", `{"ssid":"Hall 2","psk":"secret123","country":"gb"}`)
	if st != 200 || m["status"] != "ok" {
		t.Fatalf("good input: %d %v", st, m)
	}
	if b, _ := os.ReadFile(spool); string(b) != "ssid=Hall 2\npsk=secret123\ncountry=GB\n" {
		t.Errorf("spool %q", b)
	}
	o.Token = ""
	off := httptest.NewServer(Handler(o))
	defer off.Close()
	if st, m := do(t, off, "POST", "/setup/wifi", "", `{"ssid":"Hall","psk":"secret123","country":"GB"}`); st != 403 {
		t.Errorf("no token configured: %d %v", st, m)
	}
}
