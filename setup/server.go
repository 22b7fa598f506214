package setup

import (
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

//go:embed page.html
var page []byte

// Opts configures the setup pages.
type Opts struct {
	// Hotspot is the path of the access point's file
	// (/etc/tridboard/hotspot.conf on the card image); none there, the
	// page says the set has no access point.
	Hotspot string
	// SpoolDir is where the venue's Wi-Fi is written (SpoolName), for
	// the card image's tridboard-wifi.path; empty refuses it.
	SpoolDir string
	// Token is the command token the venue's Wi-Fi needs (header
	// "Authorization: Bearer <token>"), and the access point's password
	// away from Open; empty refuses both.
	Token string
	// Open are the set's own addresses on which the access point's name,
	// password and QR code are shown without the token: a visitor there
	// has joined the access point (knows the password already) or is the
	// set's own screen. Elsewhere (the venue's network, Ethernet) the
	// token is asked, the password being the access point's key.
	Open []netip.Prefix
	// Wiring, if set, learns the set's wiring from /setup/wiring
	// (wiring.go); nil: that page says the set cannot.
	Wiring *Wiring
}

// DefaultOpts: the card image's files, the access point's address
// (192.168.4.1, tridboard-hotspot) and loopback open.
func DefaultOpts() Opts {
	return Opts{Hotspot: "/etc/tridboard/hotspot.conf", Open: []netip.Prefix{
		netip.MustParsePrefix("192.168.4.1/32"), netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
}

// Handler serves GET /setup (the page), GET /setup/hotspot (the access
// point as JSON: ssid, psk, uri, svg), POST /setup/wifi (the venue's
// Wi-Fi, a JSON Venue) and /setup/wiring (learning the wiring: wiring.go).
func Handler(o Opts) http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /setup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(page)
	})
	m.HandleFunc("GET /setup/hotspot", o.hotspot)
	m.HandleFunc("POST /setup/wifi", o.wifi)
	o.wiringRoutes(m)
	return m
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, reason string) {
	reply(w, status, map[string]string{"status": "error", "reason": reason})
}

// authorised tells whether r carries the token.
func (o Opts) authorised(r *http.Request) bool {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return o.Token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(o.Token)) == 1
}

// open tells whether r reached the set on one of the Open addresses.
func (o Opts) open(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return false
	}
	for _, p := range o.Open {
		if p.Contains(ap.Addr().Unmap()) {
			return true
		}
	}
	return false
}

func (o Opts) hotspot(w http.ResponseWriter, r *http.Request) {
	h, err := ReadHotspot(o.Hotspot)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fail(w, http.StatusNotFound, "this set has no access point of its own (not the card image, or Wi-Fi is known)")
		} else {
			fail(w, http.StatusInternalServerError, err.Error())
		}
		return
	}
	if !o.open(r) && !o.authorised(r) {
		fail(w, http.StatusUnauthorized, "the access point's password is shown on the set's own network, or with the command token")
		return
	}
	svg, err := QRSVG(h.URI())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	reply(w, http.StatusOK, map[string]string{"ssid": h.SSID, "psk": h.PSK, "uri": h.URI(), "svg": svg})
}

func (o Opts) wifi(w http.ResponseWriter, r *http.Request) {
	if o.Token == "" || o.SpoolDir == "" {
		fail(w, http.StatusForbidden, "setting the Wi-Fi is off here (no command token configured, or not the card image)")
		return
	}
	if !o.authorised(r) {
		fail(w, http.StatusUnauthorized, "missing or wrong command token")
		return
	}
	var v Venue
	dec := json.NewDecoder(io.LimitReader(r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: want a JSON object with ssid, psk, country")
		return
	}
	v.Country = strings.ToUpper(strings.TrimSpace(v.Country))
	if err := v.Check(); err != nil {
		fail(w, http.StatusBadRequest, strings.ReplaceAll(strings.TrimPrefix(err.Error(), "setup: venue Wi-Fi: "), "\n", "; "))
		return
	}
	if _, err := Spool(o.SpoolDir, v); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	reply(w, http.StatusOK, map[string]string{"status": "ok",
		"message": "the set joins " + v.SSID + " now and closes its own access point: join " + v.SSID + " too and open http://<the set's name>.local:8080/"})
}
