package setup

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// The captive portal: to the access point's address, while the set is not
// set up, the phones' probes (directly, or through the set's relay of its
// port 80) and the set's own / are redirected to the setup page; the set's
// other pages, the set once set up, and requests to its other addresses
// (its screen, the venue's network) pass unchanged. A redirection gives
// nothing away: a visitor routed there from the venue is redirected too.
func TestPortal(t *testing.T) {
	const setupURL = "http://192.168.4.1:8080/setup"
	for _, c := range []struct {
		name          string
		setUp         bool
		local, remote string
		url           string
		want          string // "" passed on, else the redirect's target
	}{
		{"Android's probe", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://connectivitycheck.gstatic.com/generate_204", setupURL},
		{"Android's other probe", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://www.google.com/gen_204", setupURL},
		{"iOS's probe", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://captive.apple.com/hotspot-detect.html", setupURL},
		{"Windows' probe", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://www.msftconnecttest.com/connecttest.txt", setupURL},
		{"Firefox's probe", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://detectportal.firefox.com/canonical.html", setupURL},
		{"the set's / on its access point", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://192.168.4.1:8080/", setupURL},
		{"the set's / by name", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://tridboard.local:8080/", setupURL},
		{"port 80 (a redirection there)", false, "192.168.4.1:80", "192.168.4.23:40112", "http://captive.apple.com/hotspot-detect.html", "http://192.168.4.1:80/setup"},
		{"the setup page itself", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://192.168.4.1:8080/setup", ""},
		{"a board's page", false, "192.168.4.1:8080", "192.168.4.23:40112", "http://192.168.4.1:8080/boards/tridboard", ""},
		{"set up: the probe answered as any page", true, "192.168.4.1:8080", "192.168.4.23:40112", "http://connectivitycheck.gstatic.com/generate_204", ""},
		{"set up: the wall", true, "192.168.4.1:8080", "192.168.4.23:40112", "http://192.168.4.1:8080/", ""},
		{"the venue's network", false, "10.0.0.7:8080", "10.0.0.50:40112", "http://10.0.0.7:8080/", ""},
		{"the set's screen", false, "127.0.0.1:8080", "127.0.0.1:40112", "http://127.0.0.1:8080/", ""},
		{"through the set's relay of port 80", false, "192.168.4.1:8080", "192.168.4.1:51000", "http://captive.apple.com/hotspot-detect.html", setupURL},
		{"routed to the access point's address from the venue", false, "192.168.4.1:8080", "10.0.0.50:40112", "http://captive.apple.com/hotspot-detect.html", setupURL},
		{"routed, the setup page", false, "192.168.4.1:8080", "10.0.0.50:40112", "http://192.168.4.1:8080/setup", ""},
	} {
		o := DefaultOpts()
		o.SetUp = func() bool { return c.setUp }
		next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(299) })
		r := httptest.NewRequest("GET", c.url, nil)
		r.RemoteAddr = c.remote
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(netip.MustParseAddrPort(c.local))))
		w := httptest.NewRecorder()
		o.Portal(next).ServeHTTP(w, r)
		switch {
		case c.want == "" && w.Code != 299:
			t.Errorf("%s: %d %s, want it passed on", c.name, w.Code, w.Header().Get("Location"))
		case c.want != "" && (w.Code != http.StatusFound || w.Header().Get("Location") != c.want):
			t.Errorf("%s: %d %q, want 302 to %s", c.name, w.Code, w.Header().Get("Location"), c.want)
		}
	}
	// Without SetUp (not the daemon) nothing is redirected.
	o := DefaultOpts()
	r := httptest.NewRequest("GET", "http://captive.apple.com/hotspot-detect.html", nil)
	r.RemoteAddr = "192.168.4.23:40112"
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(netip.MustParseAddrPort("192.168.4.1:8080"))))
	w := httptest.NewRecorder()
	o.Portal(http.NotFoundHandler()).ServeHTTP(w, r)
	if w.Code != 404 {
		t.Errorf("without SetUp: %d", w.Code)
	}
}

// The access point is up while the set holds its address (read from the
// machine's interfaces: loopback's is held, a documentation address not).
func TestAPUp(t *testing.T) {
	for _, c := range []struct {
		ap   string
		want bool
	}{{"127.0.0.1", true}, {"192.0.2.1", false}} {
		if got := (Opts{AP: netip.MustParseAddr(c.ap)}).apUp(); got != c.want {
			t.Errorf("%s: up %v, want %v", c.ap, got, c.want)
		}
	}
	if (Opts{}).apUp() {
		t.Error("no access point: up")
	}
}
