// Package mqtttest holds what the tests of the MQTT client (mqtt) and of the
// embedded broker (broker) share: a recorder of received messages that waits
// against a deadline and summarises a failure, throw-away paho subscribers
// and publishers, the test moves and their check, and a test CA with server
// and client certificates. It imports neither package, so that each one's
// tests may use it beside the other.
package mqtttest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/protocol"
)

// Quiet is a logger that writes nothing.
var Quiet = slog.New(slog.DiscardHandler)

// Rec is one message a test subscriber received.
type Rec struct {
	Topic    string
	Payload  string
	Retained bool
}

// Recorder keeps the messages a subscriber receives, across reconnections
// and broker restarts.
type Recorder struct {
	mu   sync.Mutex
	msgs []Rec
	ch   chan struct{}
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{ch: make(chan struct{}, 1)} }

// Add records m.
func (r *Recorder) Add(m Rec) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

// All returns every message received, in the order received.
func (r *Recorder) All() []Rec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Rec(nil), r.msgs...)
}

// On returns the messages received on topic.
func (r *Recorder) On(topic string) []Rec {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Rec
	for _, m := range r.msgs {
		if m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// WaitFor waits until cond holds for the messages on topic.
func (r *Recorder) WaitFor(t testing.TB, topic string, what string, cond func([]Rec) bool) []Rec {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		if got := r.On(topic); cond(got) {
			return got
		}
		select {
		case <-r.ch:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			got := r.On(topic)
			t.Fatalf("%s: timed out waiting for %s; got %s", topic, what, Summary(got))
			return nil
		}
	}
}

// SummaryShown is how many messages a failure shows at each end.
const SummaryShown = 3

// Summary describes msgs for a failure: how many (and how many retained),
// and only the first and last few, however many came (a flood is thousands).
func Summary(msgs []Rec) string {
	retained := 0
	for _, m := range msgs {
		if m.Retained {
			retained++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages (%d retained)", len(msgs), retained)
	show := func(ms []Rec) {
		for _, m := range ms {
			fmt.Fprintf(&b, "\n  %.200s retained=%v", m.Payload, m.Retained)
		}
	}
	if len(msgs) <= 2*SummaryShown {
		show(msgs)
		return b.String()
	}
	show(msgs[:SummaryShown])
	fmt.Fprintf(&b, "\n  ... %d more ...", len(msgs)-2*SummaryShown)
	show(msgs[len(msgs)-SummaryShown:])
	return b.String()
}

// WaitSeq waits for the move with seq n of game g1.
func (r *Recorder) WaitSeq(t testing.TB, n int) []Rec {
	t.Helper()
	want := fmt.Sprintf(`"seq":%d,`, n)
	return r.WaitFor(t, "tridboard/board/move", "seq "+fmt.Sprint(n), func(m []Rec) bool {
		for _, x := range m {
			if strings.Contains(x.Payload, want) {
				return true
			}
		}
		return false
	})
}

// WaitCount waits for n messages on topic.
func (r *Recorder) WaitCount(t testing.TB, topic string, n int) []Rec {
	t.Helper()
	return r.WaitFor(t, topic, fmt.Sprintf("%d messages", n), func(m []Rec) bool { return len(m) >= n })
}

// CheckMoves checks the moves received: the first time each seq arrives
// they are 1..n in order, and a duplicate is the same message as the first
// (a broker may deliver again to a persistent session what was in flight
// when it stopped, so a duplicate may follow a higher seq: consumers drop
// every seq at or below the last one they applied). It returns the number
// of duplicates.
func CheckMoves(t testing.TB, got []Rec, game string, n int) int {
	t.Helper()
	seen := map[int]string{}
	last, dups := 0, 0
	for _, r := range got {
		var m protocol.Move
		if err := json.Unmarshal([]byte(r.Payload), &m); err != nil {
			t.Fatalf("move %q: %v", r.Payload, err)
		}
		if m.Game != game {
			t.Fatalf("move %s: game %q, want %q", r.Payload, m.Game, game)
		}
		if p, ok := seen[m.Seq]; ok {
			if p != r.Payload {
				t.Fatalf("seq %d twice with different payloads:\n %s\n %s", m.Seq, p, r.Payload)
			}
			dups++
			continue
		}
		if m.Seq != last+1 {
			t.Fatalf("seq %d after seq %d: a move is missing or out of order", m.Seq, last)
		}
		want, _ := json.Marshal(Move(game, m.Seq))
		if r.Payload != string(want) {
			t.Fatalf("seq %d: payload %s, want %s", m.Seq, r.Payload, want)
		}
		seen[m.Seq] = r.Payload
		last = m.Seq
	}
	if last != n {
		t.Fatalf("last seq %d, want %d", last, n)
	}
	return dups
}

// WaitToken waits for tok and fails t if it failed or timed out.
func WaitToken(t testing.TB, tok paho.Token, what string) {
	t.Helper()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatalf("%s: timed out", what)
	}
	if err := tok.Error(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Subscriber connects a fresh clean-session client subscribed to filter.
func Subscriber(t testing.TB, url, user, pass, filter string) *Recorder {
	t.Helper()
	r := NewRecorder()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("sub-%d", time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false)
	cli := paho.NewClient(o)
	WaitToken(t, cli.Connect(), "subscriber connect to "+url)
	WaitToken(t, cli.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
		r.Add(Rec{Topic: m.Topic(), Payload: string(m.Payload()), Retained: m.Retained()})
	}), "subscribe "+filter)
	t.Cleanup(func() { cli.Disconnect(0) })
	return r
}

// Publisher connects a client that publishes commands.
func Publisher(t testing.TB, url, user, pass string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("pub-%d", time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false)
	cli := paho.NewClient(o)
	WaitToken(t, cli.Connect(), "publisher connect")
	t.Cleanup(func() { cli.Disconnect(0) })
	return cli
}

// Move is the test move seq of game: a made-up move with its own
// position and time.
func Move(game string, seq int) protocol.Move {
	return protocol.Move{
		Seq:      seq,
		Game:     game,
		Move:     fmt.Sprintf("e%dW-e%dW", seq, seq+1),
		SAN:      fmt.Sprintf("e%d", seq+1),
		Position: fmt.Sprintf("pos-%s-%d", game, seq),
		Time:     time.Date(2025, 1, 2, 3, 4, seq%60, 0, time.UTC),
	}
}

// TLSFiles are PEM files of a test CA, a server certificate for 127.0.0.1
// and a client certificate, both signed by the CA.
type TLSFiles struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey string
}

// MakeTLS writes them in a temporary directory of t.
func MakeTLS(t testing.TB) *TLSFiles {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	now := time.Now()
	caKey := key()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tridboard test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	leaf := func(serial int64, cn string, usage x509.ExtKeyUsage, ips []net.IP) (string, string) {
		k := key()
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: ips,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return write(cn+".crt", "CERTIFICATE", der), write(cn+".key", "EC PRIVATE KEY", kder)
	}
	f := &TLSFiles{CA: write("ca.crt", "CERTIFICATE", caDER)}
	f.ServerCert, f.ServerKey = leaf(2, "server", x509.ExtKeyUsageServerAuth, []net.IP{net.IPv4(127, 0, 0, 1)})
	f.ClientCert, f.ClientKey = leaf(3, "client", x509.ExtKeyUsageClientAuth, nil)
	return f
}
