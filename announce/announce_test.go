package announce

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// The tests answer and browse on the loopback interface: multicast to
// 224.0.0.251 works there on Linux (the group joined on lo, the sender's
// multicast interface lo), so nothing leaves the machine. Other tests of
// the machine may announce there at the same time: each test looks only
// at its own set, by a name of its own.

func loopback(t *testing.T) *net.Interface {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ifi := range ifs {
		if ifi.Flags&net.FlagLoopback != 0 && ifi.Flags&net.FlagUp != 0 {
			return &ifi
		}
	}
	t.Fatal("no loopback interface")
	return nil
}

// fakeAfter is a clock the test moves: every wait is kept until fired.
type fakeAfter struct {
	mu    sync.Mutex
	waits map[time.Duration][]chan time.Time
}

func (f *fakeAfter) after(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.waits == nil {
		f.waits = map[time.Duration][]chan time.Time{}
	}
	c := make(chan time.Time, 1)
	f.waits[d] = append(f.waits[d], c)
	return c
}

// fire ends the waits of d, once one is there (polled until deadline).
func (f *fakeAfter) fire(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		f.mu.Lock()
		cs := f.waits[d]
		delete(f.waits, d)
		f.mu.Unlock()
		for _, c := range cs {
			c <- time.Now()
		}
		if len(cs) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing waits %v", d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testOpts announce a set of a name of its own (with a space and a dot,
// which DNS names escape) on the loopback only.
func testOpts(clock *fakeAfter) Opts {
	name := fmt.Sprintf("set %d.%d", os.Getpid(), rand.IntN(1e9))
	o := DefaultOpts()
	o.Instance, o.Host, o.Port = name, "tridtest", 8080
	o.TXT = TXT(name, "st3d", "v1.2.3", "/boards/"+name)
	o.LoopbackOnly = true
	o.After = clock.after
	return o
}

func start(t *testing.T, o Opts) *Responder {
	t.Helper()
	r, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// listen is a socket on the mDNS port, joined to the group on lo: it sees
// what is multicast there.
func listen(t *testing.T, lo *net.Interface) net.PacketConn {
	t.Helper()
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
			_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
		})
	}}
	c, err := lc.ListenPacket(context.Background(), "udp4", "0.0.0.0:5353")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := ipv4.NewPacketConn(c)
	if err := p.JoinGroup(lo, group); err != nil {
		t.Fatal(err)
	}
	if err := p.SetMulticastInterface(lo); err != nil {
		t.Fatal(err)
	}
	_ = p.SetMulticastLoopback(true)
	return c
}

// next reads messages from p until one for which match is true, or fails
// at the deadline.
func next(t *testing.T, p net.PacketConn, what string, match func(*dns.Msg) bool) *dns.Msg {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	buf := make([]byte, 9000)
	for time.Now().Before(deadline) {
		_ = p.SetReadDeadline(time.Now().Add(time.Second))
		n, _, err := p.ReadFrom(buf)
		if err != nil {
			continue
		}
		var m dns.Msg
		if m.Unpack(buf[:n]) == nil && match(&m) {
			return &m
		}
	}
	t.Fatalf("%s: none within 30 s", what)
	return nil
}

// of are the records of m named name (compared without case).
func of(m *dns.Msg, name string) []dns.RR {
	var rrs []dns.RR
	for _, rr := range append(slices.Clone(m.Answer), m.Extra...) {
		if strings.EqualFold(rr.Header().Name, name) {
			rrs = append(rrs, rr)
		}
	}
	return rrs
}

func instanceName(o Opts) string { return label(o.Instance) + "." + Service + ".local." }

func TestBrowseFindsTheSet(t *testing.T) {
	lo := loopback(t)
	o := testOpts(&fakeAfter{})
	r := start(t, o)
	if got := r.Interfaces(); !slices.Equal(got, []string{lo.Name}) {
		t.Fatalf("answers on %v, want only %s", got, lo.Name)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		sets, err := Browse(context.Background(), lo, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(sets, func(s Set) bool { return s.Instance == o.Instance })
		if i >= 0 {
			s := sets[i]
			if s.Host != "tridtest.local." || !s.Addr.Equal(net.IPv4(127, 0, 0, 1)) || s.Port != 8080 || !slices.Equal(s.TXT, o.TXT) {
				t.Fatalf("found %+v, want host tridtest.local., 127.0.0.1:8080, TXT %q", s, o.TXT)
			}
			if want := "http://127.0.0.1:8080/boards/" + o.Instance; s.URL() != want {
				t.Fatalf("URL %q, want %q", s.URL(), want)
			}
			if s.Value("rules") != "st3d" || s.Value("version") != "v1.2.3" || s.Value("board") != o.Instance {
				t.Fatalf("TXT values: rules %q version %q board %q", s.Value("rules"), s.Value("version"), s.Value("board"))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("browse found %+v, not %q", sets, o.Instance)
		}
	}
}

// ask sends q as a one-shot query (from a port other than 5353) to the
// group on lo and returns the answer that names name.
func ask(t *testing.T, lo *net.Interface, q dns.Question, name string) *dns.Msg {
	t.Helper()
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := ipv4.NewPacketConn(c).SetMulticastInterface(lo); err != nil {
		t.Fatal(err)
	}
	m := new(dns.Msg)
	m.Id = uint16(rand.IntN(65535) + 1)
	m.Question = []dns.Question{q}
	b, _ := m.Pack()
	if _, err := c.WriteTo(b, group); err != nil {
		t.Fatal(err)
	}
	got := next(t, c, q.Name, func(a *dns.Msg) bool { return len(of(a, name)) > 0 })
	if got.Id != m.Id || len(got.Question) != 1 || got.Question[0] != q || !got.Response || !got.Authoritative {
		t.Fatalf("the answer to a one-shot query must carry its id %d and question %v: %v", m.Id, q, got)
	}
	return got
}

func TestRecordsExact(t *testing.T) {
	lo := loopback(t)
	o := testOpts(&fakeAfter{})
	start(t, o)
	inst := instanceName(o)

	m := ask(t, lo, dns.Question{Name: inst, Qtype: dns.TypeTXT, Qclass: dns.ClassINET}, inst)
	txt, ok := of(m, inst)[0].(*dns.TXT)
	if !ok || !slices.Equal(txt.Txt, []string{"board=" + o.Instance, "rules=st3d", "version=v1.2.3", "path=/boards/" + o.Instance}) {
		t.Fatalf("TXT: %v", of(m, inst))
	}
	if txt.Hdr.Ttl != 10 || txt.Hdr.Class != dns.ClassINET {
		t.Fatalf("a one-shot answer: TTL %d (want 10), class %d (want IN, no cache-flush bit)", txt.Hdr.Ttl, txt.Hdr.Class)
	}

	m = ask(t, lo, dns.Question{Name: inst, Qtype: dns.TypeSRV, Qclass: dns.ClassINET}, inst)
	srv, ok := of(m, inst)[0].(*dns.SRV)
	if !ok || srv.Target != "tridtest.local." || srv.Port != 8080 {
		t.Fatalf("SRV: %v", of(m, inst))
	}

	// The host, asked in capitals: names are compared without case.
	m = ask(t, lo, dns.Question{Name: "TridTest.local.", Qtype: dns.TypeA, Qclass: dns.ClassINET}, "tridtest.local.")
	var as []string
	for _, rr := range of(m, "tridtest.local.") {
		if a, ok := rr.(*dns.A); ok {
			as = append(as, a.A.String())
		}
	}
	if !slices.Equal(as, []string{"127.0.0.1"}) {
		t.Fatalf("A tridtest.local.: %v, want lo's 127.0.0.1", as)
	}

	m = ask(t, lo, dns.Question{Name: Service + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}, Service+".local.")
	found := false
	for _, rr := range of(m, Service+".local.") {
		if p, ok := rr.(*dns.PTR); ok && p.Ptr == inst {
			found = true
		}
	}
	if !found {
		t.Fatalf("PTR %s.local. has no %s: %v", Service, inst, m.Answer)
	}
}

func TestMulticastAnswerAndHostileInput(t *testing.T) {
	lo := loopback(t)
	o := testOpts(&fakeAfter{})
	start(t, o)
	p := listen(t, lo)
	send := func(b []byte) {
		if _, err := p.WriteTo(b, group); err != nil {
			t.Fatal(err)
		}
	}
	// Before the query: what is not a standard query changes nothing.
	bad := new(dns.Msg)
	bad.SetQuestion("tridtest.local.", dns.TypeA)
	bad.Opcode = dns.OpcodeUpdate
	b1, _ := bad.Pack()
	fake := response([]dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "tridtest.local.", Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 120}, A: net.IPv4(10, 6, 6, 6)}}, true)
	b2, _ := fake.Pack()
	for _, b := range [][]byte{[]byte("not dns at all"), {0, 0, 0, 0, 0, 1}, b1, b2, make([]byte, 1500)} {
		send(b)
	}
	// A query from port 5353: the answer is multicast, with the
	// cache-flush bit and the full TTL.
	q := new(dns.Msg)
	q.SetQuestion("tridtest.local.", dns.TypeA)
	q.Id, q.RecursionDesired = 0, false
	b, _ := q.Pack()
	send(b)
	m := next(t, p, "the multicast answer", func(m *dns.Msg) bool {
		for _, rr := range of(m, "tridtest.local.") {
			if a, ok := rr.(*dns.A); ok && m.Response && a.A.Equal(net.IPv4(127, 0, 0, 1)) {
				return true
			}
		}
		return false
	})
	a := of(m, "tridtest.local.")[0].Header()
	if m.Id != 0 || len(m.Question) != 0 || a.Ttl != 120 || a.Class != dns.ClassINET|1<<15 {
		t.Fatalf("multicast answer: id %d, %d questions, TTL %d, class %#x; want 0, 0, 120, IN with cache-flush", m.Id, len(m.Question), a.Ttl, a.Class)
	}
}

func TestAnnouncedTwiceThenGoodbye(t *testing.T) {
	lo := loopback(t)
	clock := &fakeAfter{}
	o := testOpts(clock)
	p := listen(t, lo)
	r := start(t, o)
	inst := instanceName(o)
	// ptrTTL is the TTL of the service's pointer to this set in m, or -1.
	ptrTTL := func(m *dns.Msg) int {
		for _, rr := range of(m, Service+".local.") {
			if ptr, ok := rr.(*dns.PTR); ok && ptr.Ptr == inst {
				return int(ptr.Hdr.Ttl)
			}
		}
		return -1
	}
	// every checks that an unsolicited response holds all the set's
	// records with the TTL ttl.
	every := func(m *dns.Msg, ttl uint32) {
		t.Helper()
		if m.Id != 0 || len(m.Question) != 0 {
			t.Fatalf("unsolicited response with id %d, %d questions", m.Id, len(m.Question))
		}
		var kinds []string
		for _, rr := range m.Answer {
			h := rr.Header()
			if h.Ttl != ttl {
				t.Fatalf("%v: TTL %d, want %d", rr, h.Ttl, ttl)
			}
			kinds = append(kinds, dns.TypeToString[h.Rrtype]+" "+h.Name)
		}
		want := []string{"PTR _services._dns-sd._udp.local.", "PTR " + Service + ".local.", "SRV " + inst}
		for _, ip := range ifAddrs(*lo) {
			if ip.To4() != nil {
				want = append(want, "A tridtest.local.")
			} else {
				want = append(want, "AAAA tridtest.local.")
			}
		}
		want = append(want, "TXT "+inst)
		if !slices.Equal(kinds, want) {
			t.Fatalf("records %q, want %q", kinds, want)
		}
	}
	m := next(t, p, "the first announcement", func(m *dns.Msg) bool { return ptrTTL(m) > 0 })
	every(m, 120)
	clock.fire(t, time.Second)
	m = next(t, p, "the second announcement", func(m *dns.Msg) bool { return ptrTTL(m) > 0 })
	every(m, 120)

	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	m = next(t, p, "the goodbye", func(m *dns.Msg) bool { return ptrTTL(m) == 0 })
	every(m, 0)
	// Closed: it answers no more.
	if err := r.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

func TestStartRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Opts)
		want string
	}{
		{"no name", func(o *Opts) { o.Instance = "" }, "announce: no instance name"},
		{"no port", func(o *Opts) { o.Port = 0 }, "announce: port 0: want 1 to 65535"},
		{"port too high", func(o *Opts) { o.Port = 65536 }, "announce: port 65536: want 1 to 65535"},
		{"bad host", func(o *Opts) { o.Host = "bad_name.lan" }, `announce: host name "bad_name": letters, digits and inner hyphens, up to 63`},
		{"host too long", func(o *Opts) { o.Host = strings.Repeat("a", 64) }, `announce: host name "` + strings.Repeat("a", 64) + `": letters, digits and inner hyphens, up to 63`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOpts(&fakeAfter{})
			tc.edit(&o)
			_, err := Start(o)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Start: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestInterfacesChosen(t *testing.T) {
	lo := loopback(t)
	for _, tc := range []struct {
		name string
		edit func(*Opts)
		want []string
	}{
		{"loopback only", func(o *Opts) {}, []string{lo.Name}},
		{"named", func(o *Opts) { o.LoopbackOnly, o.Interfaces = false, []string{lo.Name} }, []string{lo.Name}},
		{"none that exists", func(o *Opts) { o.LoopbackOnly, o.Interfaces = false, []string{"nosuch0"} }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOpts(&fakeAfter{})
			tc.edit(&o)
			r := start(t, o)
			if got := r.Interfaces(); !slices.Equal(got, tc.want) {
				t.Fatalf("answers on %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes
	for _, tc := range []struct{ in, want, back string }{
		{"tridboard", "tridboard", "tridboard"},
		{"table 3.b", `table\ 3\.b`, "table 3.b"},
		{`back\slash`, `back\\slash`, `back\slash`},
		{long, strings.Repeat(`\195\169`, 31), strings.Repeat("é", 31)},
	} {
		got := label(tc.in)
		if got != tc.want {
			t.Errorf("label(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if back := instance(got + "." + Service + ".local."); back != tc.back {
			t.Errorf("instance(%q) = %q, want %q", got, back, tc.back)
		}
	}
}

func TestBrowseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	t0 := time.Now()
	_, err := Browse(ctx, loopback(t), time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled browse: %v, want context.Canceled", err)
	}
	if d := time.Since(t0); d > 30*time.Second {
		t.Fatalf("a cancelled browse returned after %v, not at once", d)
	}
}

// TestInterfaceComingUpIsAnnounced: an interface that comes up after the
// start (the venue's Wi-Fi joined once the access point closed) is joined
// and announced on at the next rescan, without a restart.
func TestInterfaceComingUpIsAnnounced(t *testing.T) {
	lo := loopback(t)
	up := false
	var mu sync.Mutex
	listInterfaces = func() ([]net.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		if !up {
			return nil, nil
		}
		return []net.Interface{*lo}, nil
	}
	// Put back after the responder's Close (cleanups run last first).
	t.Cleanup(func() { listInterfaces = net.Interfaces })
	clock := &fakeAfter{}
	o := testOpts(clock)
	p := listen(t, lo)
	r := start(t, o)
	if got := r.Interfaces(); len(got) != 0 {
		t.Fatalf("answers on %v before any interface is up", got)
	}
	mu.Lock()
	up = true
	mu.Unlock()
	clock.fire(t, o.Rescan)
	inst := instanceName(o)
	next(t, p, "the announcement on the new interface", func(m *dns.Msg) bool {
		for _, rr := range of(m, inst) {
			if srv, ok := rr.(*dns.SRV); ok && srv.Hdr.Ttl == 120 && srv.Port == 8080 {
				return true
			}
		}
		return false
	})
	if got := r.Interfaces(); !slices.Equal(got, []string{lo.Name}) {
		t.Fatalf("answers on %v after the rescan, want %s", got, lo.Name)
	}
}
