package broker

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/sim"
)

// followReady starts a follower and waits until it is ready.
func followReady(t *testing.T, o mqtt.FollowerOpts, h mqtt.Handlers) *mqtt.Follower {
	t.Helper()
	f, err := mqtt.Follow(o, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	return f
}

// A node that granted the subscription before it had the retained states
// (a NATS node just restarted) sends them only with a later subscription:
// a follower that has had nothing retained since it connected subscribes
// again until they come. Here the state is retained behind the follower's
// back, without being delivered, once it has subscribed.
func TestFollowerSubscribesAgainForTheRetainedStates(t *testing.T) {
	b, _, _ := rolesBroker(t, nil)
	states := make(chan protocol.State, 4)
	clk := sim.NewTimeSource(time.Time{})
	o := mqtt.DefaultFollowerOpts()
	o.Broker, o.Username, o.Password, o.Boards = b.URL(), dispUser, dispPass, []string{"board"}
	o.RetryMin, o.RetryMax = time.Second, 4*time.Second
	o.Now, o.NewTimer = clk.Now, clk.NewTimer
	followReady(t, o, mqtt.Handlers{State: func(_ string, s protocol.State) { states <- s }})
	// Subscribed, nothing retained yet: the follower waits, on its clock,
	// twice RetryMin before subscribing again.
	want := clk.Now().Add(2 * time.Second)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if ts := clk.Timers(); len(ts) == 1 && ts[0].Equal(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timers %v, want one at %v", clk.Timers(), want)
		}
	}
	// A state retained after the subscription is not sent with it (as a
	// cluster node that has just loaded its store): it comes with the next.
	payload, _ := json.Marshal(protocol.State{V: protocol.Version, Game: "g1", Variant: "st3d", Result: protocol.ResultOngoing})
	b.srv.Topics.RetainMessage(packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Publish, Retain: true},
		TopicName: "tridboard/board/state", Payload: payload})
	select {
	case s := <-states:
		t.Fatalf("state %q before the follower subscribed again", s.Game)
	default:
	}
	clk.Advance(2 * time.Second)
	select {
	case s := <-states:
		if s.Game != "g1" {
			t.Errorf("state of game %q, want g1", s.Game)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the retained state never came: the follower did not subscribe again")
	}
}
