package mqtt

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

// connects accepts MQTT connections on a loopback listener as a broker
// that speaks MQTT 3.1.1 only and refuses every connection ("unacceptable
// protocol version", as NATS answers MQTT 3.1): it sends the protocol
// name and level of each CONNECT on the channel.
func connects(t *testing.T) (url string, got <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan string, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				r := bufio.NewReader(c)
				if b, err := r.ReadByte(); err != nil || b != 0x10 {
					return // not a CONNECT
				}
				n, mul := 0, 1 // the remaining length, 1 to 4 bytes
				for {
					b, err := r.ReadByte()
					if err != nil {
						return
					}
					n += int(b&0x7f) * mul
					if b&0x80 == 0 {
						break
					}
					mul *= 128
				}
				body := make([]byte, n)
				if _, err := io.ReadFull(r, body); err != nil || n < 3 {
					return
				}
				l := int(body[0])<<8 | int(body[1])
				if 2+l >= n {
					return
				}
				select {
				case ch <- string(body[2:2+l]) + "/" + string('0'+body[2+l]):
				default:
				}
				c.Write([]byte{0x20, 0x02, 0x00, 0x01}) // CONNACK: unacceptable protocol version
			}()
		}
	}()
	return "tcp://" + ln.Addr().String(), ch
}

// checkConnects reads three connection attempts: each is MQTT 3.1.1
// ("MQTT", level 4), never a fallback to MQTT 3.1 ("MQIsdp", level 3).
func checkConnects(t *testing.T, who string, got <-chan string) {
	t.Helper()
	for i := range 3 {
		select {
		case c := <-got:
			if c != "MQTT/4" {
				t.Fatalf("%s: connection %d: %s, want MQTT/4 (MQTT 3.1.1) only", who, i+1, c)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: %d connection attempts in 30 s, want 3", who, i)
		}
	}
}

// The client and the follower speak MQTT 3.1.1 only: a broker that refuses
// it is asked again in 3.1.1, never in MQTT 3.1 (which a NATS cluster
// refuses, logging each attempt).
func TestMQTT311Only(t *testing.T) {
	t.Run("follower", func(t *testing.T) {
		url, got := connects(t)
		o := DefaultFollowerOpts()
		o.Broker, o.RetryMin, o.RetryMax = url, 20*time.Millisecond, 100*time.Millisecond
		f, err := Follow(o, Handlers{State: func(string, protocol.State) {}})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkConnects(t, "follower", got)
	})
	t.Run("client", func(t *testing.T) {
		url, got := connects(t)
		o := testOpts(&testBroker{url: url}, t.TempDir())
		newClient(t, o, nil)
		checkConnects(t, "client", got)
	})
}
