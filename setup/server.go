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
	// Peers, if set, are the visitors' addresses Open admits: a visitor
	// on the access point has one of its addresses (192.168.4.0/24), one
	// on the set's screen a loopback one. A visitor from elsewhere who
	// routes to 192.168.4.1 through the set's address on the venue's
	// network (Linux takes a packet for any of its addresses on any
	// interface) is not admitted.
	Peers []netip.Prefix
	// Scan is the file of `iw dev wlan0 scan`'s output that the venue's
	// form offers networks from (ScanName on the card image); "" none.
	Scan string
	// AP is the set's address on its access point (DefaultAP): requests
	// to it are the Portal's, and the access point is up while the set
	// holds it (APUp, if set, says so instead: for tests).
	AP   netip.Addr
	APUp func() bool
	// SetUp tells whether the set is set up (its name chosen); until then
	// the Portal leads phones on the access point to /setup. Nil: never.
	SetUp func() bool
	// Rotate makes a new command token, keeps it and applies it, and
	// returns it; nil offers none.
	Rotate func() (string, error)
	// Current is the set's name and rules system as it runs, and its
	// game; nil: the page offers neither.
	Current func() Current
	// Save keeps id (checked by Identity.Check) and applies it, or says
	// why not, having written nothing; its message tells the person what
	// happens now. Nil (or no Token) refuses.
	Save func(id Identity) (message string, err error)
	// Wiring, if set, learns the set's wiring from /setup/wiring
	// (wiring.go); nil: that page says the set cannot.
	Wiring *Wiring
}

// DefaultOpts: the card image's files, the access point's address
// (192.168.4.1, tridboard-hotspot) and loopback open.
func DefaultOpts() Opts {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	return Opts{Hotspot: "/etc/tridboard/hotspot.conf", AP: DefaultAP, Scan: ScanName,
		Open:  append([]netip.Prefix{netip.MustParsePrefix("192.168.4.1/32")}, loopback...),
		Peers: append([]netip.Prefix{netip.MustParsePrefix("192.168.4.0/24")}, loopback...)}
}

// Handler serves GET /setup (the page), GET /setup/hotspot (the access
// point as JSON: ssid, psk, uri, svg, up), POST /setup/wifi (the venue's
// Wi-Fi, a JSON Venue), GET /setup/set (the set's name and rules system,
// Current, and the systems offered), POST /setup/set (a JSON Identity),
// GET /setup/networks (the Wi-Fi networks the set saw, Network), GET
// /setup/token (the command token, to a visitor on an Open address)
// POST /setup/token (a new command token, Rotate) and /setup/wiring
// (learning the wiring: wiring.go).
func Handler(o Opts) http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /setup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(page)
	})
	m.HandleFunc("GET /setup/hotspot", o.hotspot)
	m.HandleFunc("POST /setup/wifi", o.wifi)
	m.HandleFunc("GET /setup/networks", o.networks)
	m.HandleFunc("GET /setup/token", o.token)
	m.HandleFunc("POST /setup/token", o.rotate)
	m.HandleFunc("GET /setup/set", o.set)
	m.HandleFunc("POST /setup/set", o.saveSet)
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

// open tells whether r reached the set on one of the Open addresses,
// from one of the Peers.
func (o Opts) open(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	local, err := netip.ParseAddrPort(a.String())
	if err != nil || !within(o.Open, local.Addr()) {
		return false
	}
	if len(o.Peers) == 0 {
		return true
	}
	remote, err := netip.ParseAddrPort(r.RemoteAddr)
	// The access point's own address as the visitor's is the set's relay
	// of its port 80 (tridboard-portal), which hides who is behind it.
	return err == nil && within(o.Peers, remote.Addr()) && !(o.AP.IsValid() && remote.Addr().Unmap() == o.AP)
}

func within(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a.Unmap()) {
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
	reply(w, http.StatusOK, map[string]any{"ssid": h.SSID, "psk": h.PSK, "uri": h.URI(), "svg": svg, "up": o.apUp()})
}

// command admits a form's POST: on (else 403 with off), the token (else
// 401), and its body, a JSON object of v's fields only, into v (else 400
// naming fields). It answers the refusals itself.
func (o Opts) command(w http.ResponseWriter, r *http.Request, on bool, off string, v any, fields string) bool {
	if !on || o.Token == "" {
		fail(w, http.StatusForbidden, off)
		return false
	}
	if !o.authorised(r) {
		fail(w, http.StatusUnauthorized, "missing or wrong command token")
		return false
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: want a JSON object with "+fields)
		return false
	}
	return true
}

func (o Opts) wifi(w http.ResponseWriter, r *http.Request) {
	var v Venue
	if !o.command(w, r, o.SpoolDir != "", "setting the Wi-Fi is off here (no command token configured, or not the card image)", &v, "ssid, psk, country") {
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
