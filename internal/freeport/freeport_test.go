package freeport

import (
	"net"
	"strconv"
	"testing"
)

func TestLoopbackIsFreeAndBelowTheEphemeralRange(t *testing.T) {
	top := ephemeralStart()
	for range 20 {
		p := Loopback(t)
		if p < lowest || p >= top {
			t.Fatalf("port %d outside %d-%d", p, lowest, top-1)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		l.Close()
	}
}

func TestAddrListens(t *testing.T) {
	a := Addr(t)
	l, err := net.Listen("tcp", a)
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	l.Close()
}
