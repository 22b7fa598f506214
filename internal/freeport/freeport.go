// Package freeport finds loopback TCP ports for tests' servers that must
// listen on a port known in advance (a broker restarted on its own port, a
// cluster whose nodes name each other's routes).
//
// The usual way, listening on port 0 and closing, hands back a port from
// the kernel's ephemeral range, the same range the kernel draws from for
// every outgoing connection and every other listener on port 0: between
// the close and the server's own listen, a busy test run (many packages in
// parallel, clients reconnecting) can take it, and the server then fails to
// listen. Ports below the ephemeral range are never handed out by the
// kernel, so a port found there stays free unless someone asks for that
// very number.
package freeport

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// lowest is the lowest port tried: above the well-known and most
// registered services' ports.
const lowest = 20000

// Loopback returns a TCP port on 127.0.0.1 that was free a moment ago and
// lies below the kernel's ephemeral range.
func Loopback(t testing.TB) int {
	t.Helper()
	top := ephemeralStart()
	for range 200 {
		p := lowest + rand.IntN(top-lowest)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		l.Close()
		return p
	}
	t.Fatalf("freeport: no free loopback port in %d-%d after 200 tries", lowest, top-1)
	return 0
}

// Addr is Loopback as a host:port.
func Addr(t testing.TB) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(Loopback(t)))
}

// ephemeralStart is the first port of the kernel's ephemeral range
// (Linux's default when it cannot be read, or when it leaves too little
// room below).
func ephemeralStart() int {
	const linuxDefault = 32768
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return linuxDefault
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return linuxDefault
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < lowest+1000 {
		return linuxDefault
	}
	return n
}
