package setup

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// DefaultAP is the set's address on its own access point
// (deploy/image/rootfs/tridboard-hotspot).
var DefaultAP = netip.MustParseAddr("192.168.4.1")

// apUp tells whether the access point is up: the set holds its address.
func (o Opts) apUp() bool {
	if o.APUp != nil {
		return o.APUp()
	}
	if !o.AP.IsValid() {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr() == o.AP {
			return true
		}
	}
	return false
}

// toAP tells whether r came to the access point's address.
func (o Opts) toAP(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || !o.AP.IsValid() {
		return false
	}
	local, err := netip.ParseAddrPort(a.String())
	return err == nil && local.Addr().Unmap() == o.AP
}

// onAP tells whether r came over the access point: to its address, from
// one of the Peers.
func (o Opts) onAP(r *http.Request) bool { return o.toAP(r) && o.open(r) }

// Portal leads a phone on the set's access point to the setup page while
// the set is not set up (SetUp false), as a captive portal does: a phone
// that joins a Wi-Fi network asks a well-known address over plain HTTP
// whether it reaches the internet (Android: connectivitycheck.gstatic.com
// /generate_204, wanting 204; iOS and macOS: captive.apple.com
// /hotspot-detect.html, wanting a page saying Success; Windows:
// www.msftconnecttest.com/connecttest.txt; Firefox:
// detectportal.firefox.com/canonical.html), and on any other answer, a
// redirection most of all, opens its target in a sign-in window. So a
// request on the access point for another host is redirected to
// http://<access point>:<port>/setup, and the set's own / too. Everything
// else, and every request once the set is set up or not to the access
// point's address (the venue's network, the set's screen), goes to next
// unchanged. On the card image the probes reach the pages through the
// access point's DNS and port 80 (deploy/image/rootfs/tridboard-portal).
func (o Opts) Portal(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// To the access point's address from anywhere: a redirection
		// gives nothing away, and the phones' probes come through the
		// set's relay of port 80 (tridboard-portal).
		if o.SetUp == nil || !o.toAP(r) || o.SetUp() {
			next.ServeHTTP(w, r)
			return
		}
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		own := host == o.AP.String() || strings.HasSuffix(strings.ToLower(host), ".local")
		if own && r.URL.Path != "/" {
			next.ServeHTTP(w, r)
			return
		}
		port := "80"
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			if ap, err := netip.ParseAddrPort(a.String()); err == nil {
				port = strconv.Itoa(int(ap.Port()))
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "http://"+net.JoinHostPort(o.AP.String(), port)+"/setup", http.StatusFound)
	})
}
