package setup

import (
	"crypto/rand"
	"net/http"
)

// NewToken is a new random command token: 26 characters of base32
// (crypto/rand.Text, 130 bits), which the pages, MQTT and the image's
// build (--token) all take.
func NewToken() string { return rand.Text() }

// token hands the command token to the set's first visitor: on its
// access point (who joined it with its password, which only the set
// shows) until the set is named (SetUp), and at its own screen (loopback)
// always. That is the trust of the set's first boot: who stands at the
// set may run it, as who holds its pieces may. Once the set is named,
// the access point's visitors (spectators too, where a club plays on it)
// get it from the set's owner, as everyone elsewhere does.
func (o Opts) token(w http.ResponseWriter, r *http.Request) {
	switch {
	case o.Token == "":
		fail(w, http.StatusNotFound, "this set has no command token: its pages only watch")
	case !o.open(r):
		fail(w, http.StatusUnauthorized, "the command token is shown on the set's own Wi-Fi or screen; here, ask the set's owner")
	case o.onAP(r) && o.SetUp != nil && o.SetUp():
		fail(w, http.StatusUnauthorized, "the command token is shown on the set's own Wi-Fi until the set is named; ask the set's owner")
	default:
		reply(w, http.StatusOK, map[string]any{"token": o.Token, "rotate": o.Rotate != nil})
	}
}

// rotate makes a new command token, with the current one; the old one
// stops working when the set has applied the new one.
func (o Opts) rotate(w http.ResponseWriter, r *http.Request) {
	var none struct{}
	if !o.command(w, r, o.Rotate != nil, "a new command token is not made here", &none, "no fields ({})") {
		return
	}
	tok, err := o.Rotate()
	if err != nil {
		fail(w, http.StatusInternalServerError, reason(err, "setup: "))
		return
	}
	reply(w, http.StatusOK, map[string]string{"status": "ok", "token": tok,
		"message": "The new command token is " + tok + ": write it down (away from the set's own Wi-Fi the pages ask for it). The old one stops working as the set restarts, in a few seconds."})
}
