package announce

import (
	"context"
	"io"
	"log"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

// Set is a set that answered a browse.
type Set struct {
	// Instance is its name (the board id, as it announces it).
	Instance string
	// Host is its host name (HOST.local.).
	Host string
	// Addr is its IPv4 address, Port its web server's port.
	Addr net.IP
	Port int
	// TXT are its TXT strings, key=value, as it sent them.
	TXT []string
}

// Value is the value of the TXT string key=value ("" if there is none).
func (s Set) Value(key string) string {
	for _, t := range s.TXT {
		if k, v, ok := strings.Cut(t, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// URL is the address of the set's page: its address, port and path.
func (s Set) URL() string {
	path := s.Value("path")
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return "http://" + net.JoinHostPort(s.Addr.String(), strconv.Itoa(s.Port)) + path
}

// Browse asks for the sets (_tridboard._tcp) on ifi (nil: the machine's
// default multicast interface) and returns those that answered within
// wait, sorted by name, each once.
func Browse(ctx context.Context, ifi *net.Interface, wait time.Duration) ([]Set, error) {
	entries := make(chan *mdns.ServiceEntry, 64)
	p := mdns.DefaultParams(Service)
	p.Entries, p.Timeout, p.Interface = entries, wait, ifi
	p.DisableIPv6 = true
	p.Logger = log.New(io.Discard, "", 0)
	got := make(chan []Set, 1)
	go func() {
		var sets []Set
		for e := range entries {
			sets = append(sets, Set{Instance: instance(e.Name), Host: e.Host, Addr: e.AddrV4, Port: e.Port, TXT: e.InfoFields})
		}
		got <- sets
	}()
	done := make(chan error, 1)
	go func() {
		err := mdns.QueryContext(ctx, p)
		close(entries)
		done <- err
	}()
	// The module's query waits its whole time even when ctx ends: a
	// cancelled browse returns at once and leaves it to end by itself.
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	sets := <-got
	if err != nil {
		return nil, err
	}
	slices.SortFunc(sets, func(a, b Set) int { return strings.Compare(a.Instance, b.Instance) })
	return slices.CompactFunc(sets, func(a, b Set) bool { return a.Instance == b.Instance }), nil
}

// instance is the first label of an instance's DNS name, unescaped.
func instance(name string) string {
	buf := make([]byte, 256)
	n, err := dns.PackDomainName(name, buf, 0, nil, false)
	if err != nil || n < 2 || int(buf[0])+1 > n {
		return name
	}
	return string(buf[1 : 1+int(buf[0])])
}
