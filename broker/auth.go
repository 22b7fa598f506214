package broker

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/tridboard/tridboard/internal/backoff"
	"github.com/tridboard/tridboard/protocol"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// Role is what an account of the embedded broker may do.
type Role string

// The roles. Topics are the board's, <prefix>/<board>/..., and the Home
// Assistant discovery prefix's.
const (
	// RoleDaemon may do anything: the daemon's own account. Only it
	// publishes state, move, event and availability, only it may keep
	// retained messages, and only it may use the daemon's client id.
	RoleDaemon Role = "daemon"
	// RoleController subscribes to the board's topics and publishes
	// commands (<prefix>/<board>/set/#), never retained.
	RoleController Role = "controller"
	// RoleDisplay subscribes to the board's topics and publishes nothing.
	RoleDisplay Role = "display"
)

// ParseRole reads a role name.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleDaemon, RoleController, RoleDisplay:
		return r, nil
	}
	return "", fmt.Errorf("role %q: want daemon, controller or display", s)
}

// Account is a login of the embedded broker.
type Account struct {
	Username string
	Role     Role
	// Password is the password in clear; Start hashes it and keeps
	// only the hash. Or Hash is an already hashed password: bcrypt
	// ("$2a$...", "$2b$...", "$2y$...") or argon2id in the PHC format
	// ("$argon2id$v=19$m=65536,t=3,p=2$<salt>$<hash>", unpadded base64).
	// Give one of them.
	Password, Hash string
}

// HashPassword hashes a password for Account.Hash (bcrypt, cost 10).
func HashPassword(pw string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
	return string(b), err
}

// CheckHash says whether h is a password hash Account.Hash takes.
func CheckHash(h string) error {
	_, err := parseHash(h)
	return err
}

// verifier checks a password against a hash.
type verifier func(pw []byte) bool

func parseHash(h string) (verifier, error) {
	switch {
	case strings.HasPrefix(h, "$2a$") || strings.HasPrefix(h, "$2b$") || strings.HasPrefix(h, "$2y$"):
		if _, err := bcrypt.Cost([]byte(h)); err != nil {
			return nil, fmt.Errorf("bcrypt hash: %w", err)
		}
		hb := []byte(h)
		return func(pw []byte) bool { return bcrypt.CompareHashAndPassword(hb, pw) == nil }, nil
	case strings.HasPrefix(h, "$argon2id$"):
		var v int
		var m uint32
		var t uint32
		var p uint8
		f := strings.Split(h, "$")
		if len(f) != 6 {
			return nil, errors.New(`argon2id hash: want $argon2id$v=19$m=<KiB>,t=<passes>,p=<threads>$<salt>$<hash>`)
		}
		if _, err := fmt.Sscanf(f[2], "v=%d", &v); err != nil || v != argon2.Version {
			return nil, fmt.Errorf("argon2id hash: version %q: want v=%d", f[2], argon2.Version)
		}
		if _, err := fmt.Sscanf(f[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 || m > 1<<22 {
			return nil, fmt.Errorf("argon2id hash: parameters %q: want m=<KiB up to 4194304>,t=<passes>,p=<threads>", f[3])
		}
		salt, err1 := base64.RawStdEncoding.DecodeString(f[4])
		key, err2 := base64.RawStdEncoding.DecodeString(f[5])
		if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 {
			return nil, errors.New("argon2id hash: salt (8 bytes or more) and hash (16 bytes or more) must be unpadded base64")
		}
		return func(pw []byte) bool {
			return subtle.ConstantTimeCompare(argon2.IDKey(pw, salt, t, m, p, uint32(len(key))), key) == 1
		}, nil
	}
	return nil, errors.New("not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash")
}

// account is an Account ready to check.
type account struct {
	role   Role
	verify verifier
}

// authHook logs clients in, gives them their account's rights, keeps the
// daemon's client id for the daemon and each persistent session for the
// account that made it, bounds the persistent sessions per account, and
// slows down wrong passwords per address.
type authHook struct {
	mochi.HookBase
	srv       *mochi.Server
	log       *slog.Logger
	accounts  map[string]account
	anonymous bool      // no login configured: clients without one are controllers
	local     [2]string // the login made for the daemon's own client when none is configured
	dummy     verifier  // checked for unknown users, to take as long
	daemonID  string
	board     string // <prefix>/<board>; "" = not known
	node      string // the board's Home Assistant node id
	discovery string // "" = none
	limits    Limits
	// retainsDropped counts the retained messages beyond the limits
	// (Broker.Refused).
	retainsDropped atomic.Int64
	logins         *loginLimiter
	sleep          func(time.Duration)
	now            func() time.Time
	// expire ends a stored session (to make room for a new one).
	expire func(cl *mochi.Client)

	mu   sync.Mutex
	away map[string]time.Time // persistent sessions' clients -> when they left
}

// localUser is the username of the login Start makes for the
// daemon's own client when no daemon account is configured.
const localUser = "tridboard-daemon-local"

func newAuthHook(srv *mochi.Server, o Opts, log *slog.Logger) (*authHook, error) {
	h := &authHook{srv: srv, log: log, accounts: map[string]account{}, daemonID: o.DaemonClientID,
		discovery: o.Discovery, limits: o.Limits,
		logins: newLoginLimiter(o.LoginBackoff, o.LoginBackoffMax, time.Now), sleep: time.Sleep, now: time.Now,
		anonymous: o.Username == "" && len(o.Accounts) == 0, away: map[string]time.Time{}}
	if o.BoardID != "" {
		h.board = o.Prefix + "/" + o.BoardID
		h.node = protocol.HomeAssistantNode(o.BoardID)
	}
	all := o.Accounts
	if o.Username != "" {
		all = append([]Account{{Username: o.Username, Role: RoleDaemon, Password: o.Password}}, all...)
	}
	cost := bcrypt.DefaultCost
	if o.BcryptCost != 0 {
		cost = o.BcryptCost
	}
	for i, a := range all {
		where := fmt.Sprintf("account %d (%q)", i+1, a.Username)
		if a.Username == "" {
			return nil, fmt.Errorf("%s: no username", where)
		}
		if _, dup := h.accounts[a.Username]; dup {
			return nil, fmt.Errorf("%s: username given twice", where)
		}
		if _, err := ParseRole(string(a.Role)); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		hash := a.Hash
		switch {
		case (a.Password == "") == (a.Hash == ""):
			return nil, fmt.Errorf("%s: give a password or a password hash", where)
		case a.Password != "":
			b, err := bcrypt.GenerateFromPassword([]byte(a.Password), cost)
			if err != nil {
				return nil, fmt.Errorf("%s: hash password: %w", where, err)
			}
			hash = string(b)
		}
		v, err := parseHash(hash)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		h.accounts[a.Username] = account{a.Role, v}
	}
	if o.Username == "" {
		// The daemon's own client needs the daemon's rights: a login only
		// this process knows (Broker.LocalLogin), checked in constant time.
		if _, taken := h.accounts[localUser]; taken {
			return nil, fmt.Errorf("account %q: the username is kept for the daemon's own client", localUser)
		}
		secret := make([]byte, 24)
		rand.Read(secret)
		h.local = [2]string{localUser, base64.RawURLEncoding.EncodeToString(secret)}
		want := []byte(h.local[1])
		h.accounts[localUser] = account{RoleDaemon, func(pw []byte) bool { return subtle.ConstantTimeCompare(pw, want) == 1 }}
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	d, _ := bcrypt.GenerateFromPassword(salt, cost)
	h.dummy, _ = parseHash(string(d))
	return h, nil
}

func (h *authHook) ID() string { return "tridboard-auth" }

func (h *authHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnACLCheck, mochi.OnPublish,
		mochi.OnDisconnect}, []byte{b})
}

// OnDisconnect notes when a persistent session's client left (sessions
// read from the store count as away since before the start).
func (h *authHook) OnDisconnect(cl *mochi.Client, _ error, expire bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if expire {
		delete(h.away, cl.ID)
	} else if cl.StopCause() != packets.ErrSessionTakenOver {
		h.away[cl.ID] = h.now()
	}
}

// refuse answers a CONNECT with code and logs why.
func (h *authHook) refuse(cl *mochi.Client, code packets.Code, why string, user string) error {
	h.log.Warn("mqtt: embedded broker: connection refused", "why", why, "user", user, "client", cl.ID, "remote", cl.Net.Remote)
	h.srv.SendConnack(cl, code, false, nil)
	return code
}

// OnConnect checks the login. It answers refused clients itself, with the
// reason's code, and returns an error so that mochi drops them. Without a
// configured login, a client that gives none (or a username that is no
// account) is a controller (anonymousRole).
func (h *authHook) OnConnect(cl *mochi.Client, pk packets.Packet) error {
	if cl.Net.Inline {
		return nil
	}
	user := string(pk.Connect.Username)
	role := h.anonymousRole()
	if a, known := h.accounts[user]; known || !h.anonymous {
		addr := remoteHost(cl.Net.Remote)
		wait, ok := h.logins.Slot(addr)
		if !ok {
			h.logins.Failed(addr)
			return h.refuse(cl, packets.ErrBadUsernameOrPassword, "too many failed logins from this address: try again later", user)
		}
		if wait > 0 {
			h.sleep(wait)
			h.logins.Release(addr)
		}
		if !known {
			h.dummy(pk.Connect.Password)
			h.logins.Failed(addr)
			return h.refuse(cl, packets.ErrBadUsernameOrPassword, "unknown user", user)
		}
		if !a.verify(pk.Connect.Password) {
			h.logins.Failed(addr)
			return h.refuse(cl, packets.ErrBadUsernameOrPassword, "wrong password", user)
		}
		h.logins.Succeeded(addr)
		role = a.role
	}
	if h.daemonID != "" && cl.ID == h.daemonID && role != RoleDaemon {
		return h.refuse(cl, packets.ErrClientIdentifierNotValid, "the daemon's client id is kept for the daemon's account", user)
	}
	old, exists := h.srv.Clients.Get(cl.ID)
	if exists && string(old.Properties.Username) != user {
		return h.refuse(cl, packets.ErrClientIdentifierNotValid, "the client id belongs to another account's session", user)
	}
	if !exists && persistent(cl) {
		if why := h.makeRoom(user); why != "" {
			return h.refuse(cl, packets.ErrServerUnavailable, why, user)
		}
	}
	return nil
}

// makeRoom makes room for a new persistent session of user: beyond
// MaxSessionsPerAccount sessions of that account, or MaxSessions in all,
// the session away the longest (of that account, or of any) expires. It
// says why there is no room when every such session is connected.
func (h *authHook) makeRoom(user string) string {
	var mine, all []*mochi.Client
	for _, c := range h.srv.Clients.GetAll() {
		if !persistent(c) {
			continue
		}
		all = append(all, c)
		if string(c.Properties.Username) == user {
			mine = append(mine, c)
		}
	}
	for _, lim := range []struct {
		sessions []*mochi.Client
		max      int
		what     string
	}{
		{mine, h.limits.MaxSessionsPerAccount, "persistent sessions of this account"},
		{all, h.limits.MaxSessions, "persistent sessions"},
	} {
		if len(lim.sessions) < lim.max {
			continue
		}
		var away *mochi.Client
		var since time.Time
		h.mu.Lock()
		for _, c := range lim.sessions {
			if t := h.away[c.ID]; c.Closed() && (away == nil || t.Before(since)) {
				away, since = c, t
			}
		}
		if away != nil {
			delete(h.away, away.ID)
		}
		h.mu.Unlock()
		if away == nil {
			return fmt.Sprintf("%d %s are connected (the limit)", len(lim.sessions), lim.what)
		}
		left := "before the start"
		if !since.IsZero() {
			left = since.UTC().Format(time.RFC3339)
		}
		h.log.Warn("mqtt: embedded broker: persistent session expired to make room", "client", away.ID,
			"user", string(away.Properties.Username), "left", left,
			"why", fmt.Sprintf("%d %s (the limit)", len(lim.sessions), lim.what))
		h.expire(away)
		if lim.what != "persistent sessions" {
			return "" // one fewer in all too
		}
	}
	return ""
}

// forgetStrangers expires the stored sessions of usernames that are no
// longer accounts (or, without logins, of any account): accounts that will
// not come back. Run once the store is read.
func (h *authHook) forgetStrangers() {
	for _, c := range h.srv.Clients.GetAll() {
		user := string(c.Properties.Username)
		if _, known := h.accounts[user]; known || h.anonymous || c.Net.Inline {
			continue
		}
		h.log.Warn("mqtt: embedded broker: stored session of a user that is no longer an account expired", "client", c.ID, "user", user)
		h.expire(c)
	}
}

// OnConnectAuthenticate lets in whoever OnConnect let through.
func (h *authHook) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }

func (h *authHook) role(cl *mochi.Client) Role {
	if cl.Net.Inline {
		return RoleDaemon
	}
	if a, ok := h.accounts[string(cl.Properties.Username)]; ok {
		return a.role
	}
	if h.anonymous {
		return h.anonymousRole()
	}
	return ""
}

// anonymousRole is the role of a client without a login when none is
// configured: a controller, so that the daemon's topics are written by
// the daemon alone; without a BoardID (a hall's broker for several sets,
// no daemon's topics to keep) the daemon's role, as before.
func (h *authHook) anonymousRole() Role {
	if h.board == "" {
		return RoleDaemon
	}
	return RoleController
}

// within says whether every topic filter matches lies under root.
func within(filter, root string) bool {
	return root != "" && (filter == root || strings.HasPrefix(filter, root+"/"))
}

// OnACLCheck: the daemon may do anything; a controller publishes commands;
// displays and controllers subscribe to the board's and the discovery
// prefix's topics.
func (h *authHook) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	switch h.role(cl) {
	case RoleDaemon:
		return true
	case RoleController:
		if write {
			return within(topic, h.board+"/set")
		}
	case RoleDisplay:
		if write {
			return false
		}
	default:
		return false
	}
	return within(topic, h.board) || within(topic, h.discovery)
}

// OnPublish keeps retained messages to the daemon's account on its own
// topics: the daemon's own retained topics (own) always, outside the
// budget; others within Limits' retained budget. Elsewhere, and
// beyond the budget, the retain flag is cleared, so the message is
// delivered but not kept.
func (h *authHook) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	if !pk.FixedHeader.Retain || len(pk.Payload) == 0 {
		return pk, nil
	}
	why := ""
	switch {
	case h.role(cl) != RoleDaemon || h.board != "" && !(within(pk.TopicName, h.board) || within(pk.TopicName, h.discovery)):
		why = "retained messages are kept only on the daemon's topics, from its account"
	case h.own(pk.TopicName):
	default:
		n, size := 0, len(pk.Payload)
		for topic, m := range h.srv.Topics.Retained.GetAll() {
			if topic != pk.TopicName && !strings.HasPrefix(topic, "$") && !h.own(topic) {
				n++
				size += len(m.Payload)
			}
		}
		if n >= h.limits.MaxRetained || size > h.limits.MaxRetainedBytes {
			why = fmt.Sprintf("retained messages full (%d messages, %d bytes at most, besides the daemon's own)", h.limits.MaxRetained, h.limits.MaxRetainedBytes)
		}
	}
	switch {
	case why == "":
	case strings.HasPrefix(why, "retained messages full"):
		// Beyond the broker's limits (a hall's sets on a set's broker): a
		// display joining later would miss the state, so say it loudly.
		h.log.Error("mqtt: embedded broker: retain flag cleared: "+beyondLimits, "why", why, "topic", pk.TopicName, "client", cl.ID, "remote", cl.Net.Remote)
		h.retainsDropped.Add(1)
		pk.FixedHeader.Retain = false
	default:
		h.log.Warn("mqtt: embedded broker: retain flag cleared", "why", why, "topic", pk.TopicName, "client", cl.ID, "remote", cl.Net.Remote)
		pk.FixedHeader.Retain = false
	}
	return pk, nil
}

// own says whether topic is one the daemon itself retains: the board's
// state, availability and key, and its Home Assistant discovery configs
// (<discovery>/<component>/<node>/<object>/config). They have a budget of
// their own: a fixed handful of messages of at most MaxPacketSize each.
func (h *authHook) own(topic string) bool {
	if h.board == "" {
		return false
	}
	if topic == h.board+"/"+topicState || topic == h.board+"/"+topicAvailability || topic == h.board+"/"+topicKey {
		return true
	}
	rest, ok := strings.CutPrefix(topic, h.discovery+"/")
	if h.discovery == "" || !ok {
		return false
	}
	f := strings.Split(rest, "/")
	return len(f) == 4 && f[1] == h.node && f[3] == "config"
}

func remoteHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// loginLimiter slows down failed logins per address (backoff.Limiter).
type loginLimiter = backoff.Limiter

func newLoginLimiter(base, max time.Duration, now func() time.Time) *loginLimiter {
	return backoff.New(base, max, now)
}

// The daemon's own retained topics under <prefix>/<board>/: the client's
// mqtt.TopicState, TopicAvailability and TopicKey (TestOwnTopicsAreTheClients
// keeps them equal; the broker does not import the client).
const topicState, topicAvailability, topicKey = "state", "availability", "key"
