package setup

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// The command token is handed to a visitor on the set's own addresses
// (its access point, its screen) coming from the matching network, and
// to nobody else; with none configured the page says the set only
// watches.
func TestTokenGivenOnTheSetsOwnNetworkOnly(t *testing.T) {
	loop := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	ap := []netip.Prefix{netip.MustParsePrefix("192.168.4.0/24")}
	for _, c := range []struct {
		name        string
		open, peers []netip.Prefix
		token       string
		want        int
	}{
		{"on the set's own address, from its network", loop, loop, "tok-1", 200},
		{"on the set's own address, any visitor (no Peers)", loop, nil, "tok-1", 200},
		{"the venue's network", nil, nil, "tok-1", 401},
		{"routed to the access point's address from elsewhere", loop, ap, "tok-1", 401},
		{"no token configured", loop, loop, "", 404},
	} {
		o := testOpts(t)
		o.Open, o.Peers, o.Token = c.open, c.peers, c.token
		srv := httptest.NewServer(Handler(o))
		st, m := do(t, srv, "GET", "/setup/token", "", "")
		srv.Close()
		if st != c.want {
			t.Errorf("%s: %d %v, want %d", c.name, st, m, c.want)
		}
		if (st == 200) != (m["token"] == "tok-1") {
			t.Errorf("%s: token %q given with %d", c.name, m["token"], st)
		}
	}
	// The access point's password follows the same rule.
	o := testOpts(t)
	o.Open, o.Peers = loop, ap
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	if st, m := do(t, srv, "GET", "/setup/hotspot", "", ""); st != 401 || m["psk"] != "" {
		t.Errorf("the access point's password to a routed visitor: %d %v", st, m)
	}
}

// A new command token: with the current one only; the new one returned
// once made and kept (Rotate), or the failure said.
func TestRotateToken(t *testing.T) {
	o := testOpts(t)
	made := 0
	o.Rotate = func() (string, error) {
		made++
		if made == 2 {
			return "", errors.New("setup: config: setup: disk full")
		}
		return "NEWTOKEN", nil
	}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	for _, c := range []struct {
		name, token, body string
		want              int
		says              string
		made              int
	}{
		{"no token", "", "{}", 401, "token", 0},
		{"wrong token", "tok-2", "{}", 401, "token", 0},
		{"a field", "tok-1", `{"token":"mine"}`, 400, "malformed", 0},
		{"good", "tok-1", "{}", 200, "The new command token is NEWTOKEN", 1},
		{"the set fails", "tok-1", "{}", 500, "disk full", 2},
	} {
		st, m := do(t, srv, "POST", "/setup/token", c.token, c.body)
		if st != c.want || !strings.Contains(m["reason"]+m["message"], c.says) || made != c.made {
			t.Errorf("%s: %d %v (made %d), want %d %q (%d)", c.name, st, m, made, c.want, c.says, c.made)
		}
		if (st == 200) != (m["token"] == "NEWTOKEN") {
			t.Errorf("%s: token %q", c.name, m["token"])
		}
	}
	o.Rotate = nil
	off := httptest.NewServer(Handler(o))
	defer off.Close()
	if st, _ := do(t, off, "POST", "/setup/token", "tok-1", "{}"); st != 403 {
		t.Errorf("without Rotate: %d", st)
	}
	if a, b := NewToken(), NewToken(); len(a) != 26 || a == b || strings.Trim(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") != "" {
		t.Errorf("NewToken: %q, %q", a, b)
	}
}

// On the access point the token goes to the first visitors only: until
// the set is named (SetUp); at the set's screen always.
func TestTokenOnTheAccessPointUntilNamed(t *testing.T) {
	for _, c := range []struct {
		name          string
		local, remote string
		named         bool
		want          int
	}{
		{"the access point, not named", "192.168.4.1:8080", "192.168.4.20:5000", false, 200},
		{"the access point, named", "192.168.4.1:8080", "192.168.4.20:5000", true, 401},
		{"the screen, named", "127.0.0.1:8080", "127.0.0.1:5000", true, 200},
		{"the venue's network, not named", "10.0.0.7:8080", "10.0.0.50:5000", false, 401},
		{"through the set's relay of port 80, not named", "192.168.4.1:8080", "192.168.4.1:5000", false, 401},
		{"routed from the venue, not named", "192.168.4.1:8080", "10.0.0.50:5000", false, 401},
	} {
		o := DefaultOpts()
		o.Token = "tok-1"
		o.SetUp = func() bool { return c.named }
		r := httptest.NewRequest("GET", "http://x/setup/token", nil)
		r.RemoteAddr = c.remote
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(netip.MustParseAddrPort(c.local))))
		w := httptest.NewRecorder()
		Handler(o).ServeHTTP(w, r)
		if w.Code != c.want || (w.Code == 200) != strings.Contains(w.Body.String(), `"token":"tok-1"`) {
			t.Errorf("%s: %d %s, want %d", c.name, w.Code, w.Body, c.want)
		}
	}
}
