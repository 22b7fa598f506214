package announce

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// Service is the DNS-SD service type of a set's web pages.
const Service = "_tridboard._tcp"

// The mDNS group and port (RFC 6762 section 3).
var group = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}

// hostRE is a host name's label (RFC 1123).
var hostRE = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// HostLabel tells whether s can be a host name (Opts.Host): letters,
// digits and inner hyphens, 1 to 63 of them (RFC 1123).
func HostLabel(s string) bool { return hostRE.MatchString(s) }

// listInterfaces lists the machine's interfaces (a test shows one coming
// up).
var listInterfaces = net.Interfaces

// Opts say what the Responder announces and where.
type Opts struct {
	// Instance is the set's name in a browser's list: its board id.
	Instance string
	// Host is the host name answered as Host.local; "" takes the
	// machine's (its first label).
	Host string
	// Port is the web server's port.
	Port int
	// TXT are the service's TXT strings, key=value (TXT makes the set's).
	TXT []string
	// Interfaces are the names of the interfaces to answer on; nil: every
	// interface that is up and can multicast, and the loopback.
	Interfaces []string
	// LoopbackOnly answers on the loopback interfaces alone (a web server
	// that listens on 127.0.0.1 is reachable from nowhere else).
	LoopbackOnly bool
	// Rescan is how often the interfaces are looked at again: one that
	// comes up (the venue's Wi-Fi joined) or gets a new address (DHCP) is
	// announced on. 0: 10 s.
	Rescan time.Duration
	// After waits; nil: time.After. Tests give their own clock.
	After func(time.Duration) <-chan time.Time
	// Log receives what fails; nil: slog.Default().
	Log *slog.Logger
}

// DefaultOpts are the settings of a set: the machine's host name, every
// interface, a rescan every 10 s.
func DefaultOpts() Opts {
	return Opts{Rescan: 10 * time.Second}
}

// TXT returns a set's TXT strings: its board id, rules system, version
// and page path, in that order.
func TXT(board, rules, version, path string) []string {
	return []string{"board=" + board, "rules=" + rules, "version=" + version, "path=" + path}
}

// Responder answers for a set until Close.
type Responder struct {
	o     Opts
	conn  *ipv4.PacketConn
	raw   net.PacketConn
	host  string // FQDN: host.local.
	inst  string // the instance label, escaped as in a DNS name
	log   *slog.Logger
	done  chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	links map[int]*link // by interface index
}

// link is an interface answered on: its records, for its addresses.
type link struct {
	ifi   net.Interface
	addrs []net.IP
	zone  *mdns.MDNSService
}

// Start opens the socket, joins the group on the interfaces and announces
// the set. The error says what could not be opened.
func Start(o Opts) (*Responder, error) {
	if o.Instance == "" {
		return nil, errors.New("announce: no instance name")
	}
	if o.Port <= 0 || o.Port > 65535 {
		return nil, fmt.Errorf("announce: port %d: want 1 to 65535", o.Port)
	}
	if o.Host == "" {
		h, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("announce: host name: %w", err)
		}
		o.Host = h
	}
	o.Host, _, _ = strings.Cut(o.Host, ".")
	if !hostRE.MatchString(o.Host) {
		return nil, fmt.Errorf("announce: host name %q: letters, digits and inner hyphens, up to 63", o.Host)
	}
	if o.Rescan <= 0 {
		o.Rescan = 10 * time.Second
	}
	if o.After == nil {
		o.After = time.After
	}
	r := &Responder{o: o, host: strings.ToLower(o.Host) + ".local.", inst: label(o.Instance),
		log: o.Log, done: make(chan struct{}), links: map[int]*link{}}
	if r.log == nil {
		r.log = slog.Default()
	}
	// Port 5353 shared with any other responder on the machine (avahi,
	// a browser): every socket on it sees the group's queries.
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
			if serr == nil {
				serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
			}
		})
		return errors.Join(err, serr)
	}}
	raw, err := lc.ListenPacket(context.Background(), "udp4", fmt.Sprintf("0.0.0.0:%d", group.Port))
	if err != nil {
		return nil, fmt.Errorf("announce: mDNS port %d: %w", group.Port, err)
	}
	r.raw, r.conn = raw, ipv4.NewPacketConn(raw)
	// The interface of every query; answers leave with TTL 255 (RFC 6762
	// section 11) and reach this machine's own browsers too.
	for _, set := range []func() error{
		func() error { return r.conn.SetControlMessage(ipv4.FlagInterface, true) },
		func() error { return r.conn.SetMulticastTTL(255) },
		func() error { return r.conn.SetTTL(255) },
		func() error { return r.conn.SetMulticastLoopback(true) },
	} {
		if err := set(); err != nil {
			raw.Close()
			return nil, fmt.Errorf("announce: mDNS socket: %w", err)
		}
	}
	if err := r.scan(); err != nil {
		raw.Close()
		return nil, err
	}
	r.wg.Add(2)
	go r.serve()
	go r.watch()
	return r, nil
}

// Close says goodbye on every interface (the records with TTL 0) and
// stops answering.
func (r *Responder) Close() error {
	select {
	case <-r.done:
		return nil
	default:
	}
	close(r.done)
	r.mu.Lock()
	for _, l := range r.links {
		r.send(l, true)
	}
	r.mu.Unlock()
	err := r.raw.Close()
	r.wg.Wait()
	return err
}

// Host is the name answered, HOST.local. (lower case).
func (r *Responder) Host() string { return r.host }

// Interfaces are the names of the interfaces answered on now.
func (r *Responder) Interfaces() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, l := range r.links {
		names = append(names, l.ifi.Name)
	}
	slices.Sort(names)
	return names
}

// watch looks at the interfaces every Rescan until Close.
func (r *Responder) watch() {
	defer r.wg.Done()
	for {
		select {
		case <-r.done:
			return
		case <-r.o.After(r.o.Rescan):
		}
		if err := r.scan(); err != nil {
			r.log.Warn("mDNS: interfaces", "err", err)
		}
	}
}

// scan joins the group on the interfaces that came up, leaves those gone,
// and announces on every new or readdressed one (twice: the second a
// second later, from a goroutine).
func (r *Responder) scan() error {
	ifs, err := listInterfaces()
	if err != nil {
		return fmt.Errorf("announce: interfaces: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[int]bool{}
	var fresh []*link
	for _, ifi := range ifs {
		if !r.wanted(ifi) {
			continue
		}
		addrs := ifAddrs(ifi)
		if len(addrs) == 0 {
			continue
		}
		seen[ifi.Index] = true
		old := r.links[ifi.Index]
		if old != nil && slices.EqualFunc(old.addrs, addrs, net.IP.Equal) {
			old.ifi = ifi // renamed by udev (usb0 to enx...), its addresses the same
			continue
		}
		if old == nil {
			if err := r.conn.JoinGroup(&ifi, group); err != nil {
				r.log.Warn("mDNS: cannot join the group", "interface", ifi.Name, "err", err)
				continue
			}
		}
		zone, err := mdns.NewMDNSService(r.inst, Service, "local.", r.host, r.o.Port, addrs, r.o.TXT)
		if err != nil {
			return fmt.Errorf("announce: %w", err)
		}
		l := &link{ifi: ifi, addrs: addrs, zone: zone}
		r.links[ifi.Index] = l
		fresh = append(fresh, l)
	}
	for i, l := range r.links {
		if !seen[i] {
			_ = r.conn.LeaveGroup(&l.ifi, group)
			delete(r.links, i)
		}
	}
	for _, l := range fresh {
		r.send(l, false)
	}
	if len(fresh) > 0 {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			select {
			case <-r.done:
				return
			case <-r.o.After(time.Second):
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			for _, l := range fresh {
				if r.links[l.ifi.Index] == l {
					r.send(l, false)
				}
			}
		}()
	}
	return nil
}

// wanted reports whether ifi is one to answer on.
func (r *Responder) wanted(ifi net.Interface) bool {
	if ifi.Flags&net.FlagUp == 0 {
		return false
	}
	loop := ifi.Flags&net.FlagLoopback != 0
	switch {
	case r.o.LoopbackOnly:
		return loop
	case r.o.Interfaces != nil:
		return slices.Contains(r.o.Interfaces, ifi.Name)
	}
	return loop || ifi.Flags&net.FlagMulticast != 0
}

// ifAddrs are an interface's IP addresses, IPv4 first.
func ifAddrs(ifi net.Interface) []net.IP {
	as, err := ifi.Addrs()
	if err != nil {
		return nil
	}
	var v4, v6 []net.IP
	for _, a := range as {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		if ip := n.IP.To4(); ip != nil {
			v4 = append(v4, ip)
		} else {
			v6 = append(v6, n.IP)
		}
	}
	return append(v4, v6...)
}

// all are every record of a link: the service type, the instance's
// pointer, its SRV and TXT, the host's addresses.
func (l *link) all() []dns.RR {
	rrs := l.zone.Records(dns.Question{Name: "_services._dns-sd._udp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET})
	return append(rrs, l.zone.Records(dns.Question{Name: Service + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET})...)
}

// send multicasts every record of l on its interface: an announcement, or
// with TTL 0 a goodbye. Called with r.mu held.
func (r *Responder) send(l *link, goodbye bool) {
	rrs := l.all()
	for _, rr := range rrs {
		if goodbye {
			rr.Header().Ttl = 0
		}
	}
	m := response(rrs, true)
	if err := r.write(m, &ipv4.ControlMessage{IfIndex: l.ifi.Index}, group); err != nil {
		r.log.Warn("mDNS: cannot announce", "interface", l.ifi.Name, "goodbye", goodbye, "err", err)
	}
}

// response is a multicast response (RFC 6762 section 18): id 0, no
// question, authoritative; the records unique to this host carry the
// cache-flush bit (section 10.2) when flush.
func response(rrs []dns.RR, flush bool) *dns.Msg {
	m := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true}
	for _, rr := range rrs {
		if flush && rr.Header().Rrtype != dns.TypePTR {
			rr.Header().Class |= 1 << 15
		}
		m.Answer = append(m.Answer, rr)
	}
	return m
}

func (r *Responder) write(m *dns.Msg, cm *ipv4.ControlMessage, to net.Addr) error {
	b, err := m.Pack()
	if err != nil {
		return err
	}
	if cm != nil {
		// The interface the answer leaves by: the control message alone is
		// not enough for multicast on every kernel.
		ifi, err := net.InterfaceByIndex(cm.IfIndex)
		if err == nil {
			_ = r.conn.SetMulticastInterface(ifi)
		}
	}
	_, err = r.conn.WriteTo(b, cm, to)
	return err
}

// serve answers queries until Close.
func (r *Responder) serve() {
	defer r.wg.Done()
	buf := make([]byte, 9000)
	for {
		n, cm, src, err := r.conn.ReadFrom(buf)
		if err != nil {
			select {
			case <-r.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		from, ok := src.(*net.UDPAddr)
		if !ok || cm == nil {
			continue
		}
		var q dns.Msg
		// Not DNS, a response (another responder's, or our own looped
		// back), not a standard query: ignored (RFC 6762 section 18).
		if q.Unpack(buf[:n]) != nil || q.Response || q.Opcode != dns.OpcodeQuery || q.Rcode != 0 {
			continue
		}
		r.answer(&q, cm.IfIndex, from)
	}
}

// answer answers q, which came on interface ifIndex from from.
func (r *Responder) answer(q *dns.Msg, ifIndex int, from *net.UDPAddr) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.links[ifIndex]
	if l == nil {
		return
	}
	legacy := from.Port != group.Port
	var multi, uni []dns.RR
	for _, qq := range q.Question {
		unicast := qq.Qclass&(1<<15) != 0
		qq.Qclass &^= 1 << 15
		if qq.Qclass != dns.ClassINET && qq.Qclass != dns.ClassANY {
			continue
		}
		// DNS names are compared without case (RFC 6762 section 16).
		for _, name := range []string{"_services._dns-sd._udp.local.", Service + ".local.", l.zone.Instance + "." + Service + ".local.", r.host} {
			if strings.EqualFold(qq.Name, name) {
				qq.Name = name
			}
		}
		rrs := l.zone.Records(qq)
		if legacy || unicast {
			uni = append(uni, rrs...)
		} else {
			multi = append(multi, rrs...)
		}
	}
	if len(multi) > 0 {
		if err := r.write(response(multi, true), &ipv4.ControlMessage{IfIndex: ifIndex}, group); err != nil {
			r.log.Debug("mDNS: answer", "err", err)
		}
	}
	if len(uni) > 0 {
		m := response(uni, !legacy)
		if legacy {
			// A one-shot query (section 6.7): its id and question back, TTLs
			// of at most 10 s.
			m.Id, m.Question = q.Id, q.Question
			for _, rr := range uni {
				rr.Header().Ttl = min(rr.Header().Ttl, 10)
			}
		}
		if err := r.write(m, nil, from); err != nil {
			r.log.Debug("mDNS: answer", "to", from, "err", err)
		}
	}
}

// label is name as one DNS label in presentation form (dots, spaces and
// backslashes escaped as miekg/dns reads them), cut to 63 bytes.
func label(name string) string {
	for len(name) > 63 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	wire := append(append([]byte{byte(len(name))}, name...), 0)
	s, _, err := dns.UnpackDomainName(wire, 0)
	if err != nil {
		return "tridboard"
	}
	return strings.TrimSuffix(s, ".")
}
