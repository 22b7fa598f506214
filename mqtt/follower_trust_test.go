package mqtt

import (
	"github.com/tridboard/tridboard/broker"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// Issue 34: what a follower with a checker hands its handlers is only what
// the set signed, newer than what it had; a follower without one still
// refuses an oversized payload unread. The payloads come from a hostile
// client on a hall's broker (no board id: anyone may publish).
func TestFollowerBelievesOnlyTheSet(t *testing.T) {
	lim := broker.DefaultLimits()
	lim.MaxPacketSize, lim.MaxQueuedBytes = 1<<20, 4<<20 // a broker that lets a large payload through
	b, err := broker.Start(broker.Opts{Addr: "127.0.0.1:0", Limits: lim, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	set, _ := trust.NewKey()
	ring, _ := trust.OpenRing("")
	ring.Enroll("board", set.Public())
	co := trust.DefaultCheckerOpts(ring)
	co.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	checker := trust.NewChecker(co)
	var mu sync.Mutex
	got := map[string][]string{} // by follower: the games of the states handed over
	follow := func(name string, c *trust.Checker) {
		o := DefaultFollowerOpts()
		o.Broker, o.Checker, o.ClientID = b.URL(), c, name
		followReady(t, o, Handlers{State: func(_ string, s protocol.State) {
			mu.Lock()
			defer mu.Unlock()
			got[name] = append(got[name], s.Game)
		}})
	}
	follow("checked", checker)
	follow("open", nil)
	hostile := paho.NewClient(paho.NewClientOptions().AddBroker(b.URL()).SetClientID("hostile"))
	if tok := hostile.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer hostile.Disconnect(0)
	state := func(game string) []byte { return []byte(`{"v":1,"game":"` + game + `","turn":"white","result":"*"}`) }
	old, _ := set.Seal("board", TopicState, state("g1"))
	newer, _ := set.Seal("board", TopicState, state("g2"))
	forger, _ := trust.NewKey()
	forged, _ := forger.Seal("board", TopicState, state("forged-signed"))
	huge := append([]byte(`{"v":1,"game":"huge","turn":"white","pad":"`), []byte(strings.Repeat("x", 300<<10)+`"}`)...)
	for _, p := range [][]byte{newer, state("forged-unsigned"), forged, old, huge, state("last-unsigned")} {
		if tok := hostile.Publish("tridboard/board/state", 1, false, p); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		done := len(got["open"]) > 0 && got["open"][len(got["open"])-1] == "last-unsigned"
		mu.Unlock()
		if done && checker.Refused() == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the followers got %v, the checker refused %d", got, checker.Refused())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got["checked"], " ") != "g2" {
		t.Errorf("the checked follower believed %v, want only g2", got["checked"])
	}
	if want := "g2 forged-unsigned forged-signed g1 last-unsigned"; strings.Join(got["open"], " ") != want {
		t.Errorf("the open follower got %v, want %s (all but the oversized)", got["open"], want)
	}
}
