package hall

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Plan is the hall to configure.
type Plan struct {
	// Prefix is the sets' topic prefix (mqtt.prefix), one or more levels.
	Prefix string
	// Sets are the board ids of the hall's sets; each gets the account
	// SetUser(id).
	Sets []string
	// Spectators are read-only accounts (views, scoreboards, displays).
	Spectators []string
	// Event is the event runner's account ("" none).
	Event string
	// Discovery is the sets' Home Assistant discovery prefix ("" none).
	Discovery string
}

// DefaultPlan: prefix "hall", an event runner "event", one spectator
// account "spectator", discovery "homeassistant".
func DefaultPlan() Plan {
	return Plan{Prefix: "hall", Event: "event", Spectators: []string{"spectator"}, Discovery: "homeassistant"}
}

// SetUser is the account of the set id.
func SetUser(id string) string { return "set-" + id }

// Check says what is wrong with p: ids that are not one topic level (nor
// a NATS subject token: no '.', no space, no wildcard), an account named
// twice.
func (p Plan) Check() error {
	if p.Prefix == "" || strings.ContainsAny(p.Prefix, "#+ .*>\x00") || strings.HasPrefix(p.Prefix, "/") || strings.HasSuffix(p.Prefix, "/") {
		return fmt.Errorf("hall: prefix %q: want topic levels without wildcards, '.' or spaces", p.Prefix)
	}
	if len(p.Sets) == 0 {
		return errors.New("hall: no sets: name the hall's board ids")
	}
	seen := map[string]bool{}
	for _, u := range p.Users() {
		if u == "" || strings.ContainsAny(u, "/#+ .*>:\x00\"") {
			return fmt.Errorf("hall: account or board id %q: want letters, digits, '-' or '_'", u)
		}
		if seen[u] {
			return fmt.Errorf("hall: account %q named twice", u)
		}
		seen[u] = true
	}
	return nil
}

// Users are every account of the hall, sorted.
func (p Plan) Users() []string {
	var u []string
	for _, s := range p.Sets {
		u = append(u, SetUser(s))
	}
	u = append(u, p.Spectators...)
	if p.Event != "" {
		u = append(u, p.Event)
	}
	sort.Strings(u)
	return u
}

// Rights are what an account may publish and subscribe to, as MQTT topic
// filters.
type Rights struct {
	Publish, Subscribe []string
}

// Rights of each account: a set writes its own topics and the discovery
// configs of its own device, and reads the others' state, record,
// availability and key (a game between sets); a spectator reads the sets'
// payloads, never their commands; the event runner reads everything and
// writes commands.
func (p Plan) Rights() map[string]Rights {
	r := map[string]Rights{}
	read := func(kinds ...string) []string {
		var f []string
		for _, k := range kinds {
			f = append(f, p.Prefix+"/+/"+k)
		}
		return f
	}
	for _, s := range p.Sets {
		own := p.Prefix + "/" + s + "/#"
		pub := []string{own}
		if p.Discovery != "" {
			pub = append(pub, p.Discovery+"/+/tridboard_"+s+"/#")
		}
		r[SetUser(s)] = Rights{Publish: pub, Subscribe: append([]string{own}, read("state", "remote", "availability", "key")...)}
	}
	for _, sp := range p.Spectators {
		r[sp] = Rights{Subscribe: read("state", "move", "event", "availability", "remote", "key")}
	}
	if p.Event != "" {
		r[p.Event] = Rights{Publish: []string{p.Prefix + "/+/set/#"},
			Subscribe: read("state", "move", "event", "availability", "remote", "key", "response/#")}
	}
	return r
}

// NewPassword is a random password: 24 bytes, base64url (32 characters).
func NewPassword() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
