package mqtt

import (
	"encoding/json"
	"flag"
	"strconv"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/mqtttest"
	"github.com/tridboard/tridboard/internal/natstest"
	"github.com/tridboard/tridboard/protocol"
)

var (
	nfSuspect   = flag.Duration("nf.suspect", 0, "BenchmarkNATSHardFailure: the sets' Opts.SuspectAfter (0: the default; negative: never, as before it existed)")
	nfKeepAlive = flag.Duration("nf.keepalive", 0, "BenchmarkNATSHardFailure: the sets' Opts.KeepAlive (0: the default; 30s before SuspectAfter)")
)

// hardDeath ends node i as how says: "" kills it (its clients' connections
// are reset at once), "frozen" freezes it for its clients (a stopped
// process, a pulled cable: nothing comes back, nothing is closed; the node
// stays in its cluster), "power-cut" freezes and kills it (the cluster
// loses it, its clients hear nothing).
func hardDeath(c *natstest.Cluster, i int, how string) {
	switch how {
	case "":
		c.Kill(i)
	case "frozen":
		c.Freeze(i)
	case "power-cut":
		c.Freeze(i)
		c.Kill(i)
	default:
		panic("hardDeath: " + how)
	}
}

// BenchmarkNATSHardFailure measures how long the moves of the sets on a
// node that dies hard stand still: BenchmarkNATSFailover's hall (30 sets
// moving every second on 3 nats-server nodes), the node leading none of
// the MQTT streams (else one not leading the sessions') frozen for its
// clients, or frozen and killed (a power cut). Before Opts.SuspectAfter
// (-nf.suspect -1ns) a set noticed only at paho's ping timeout:
//
//	go test ./mqtt -run - -bench NATSHardFailure -benchtime 1x -nf.after 50s -nf.suspect -1ns -nf.keepalive 30s
//	go test ./mqtt -run - -bench NATSHardFailure -benchtime 1x
func BenchmarkNATSHardFailure(b *testing.B) {
	noLeader := failoverVictims[2]
	for _, how := range []string{"frozen", "power-cut"} {
		b.Run(how, func(b *testing.B) { benchFailover(b, noLeader.name+" "+how, noLeader.pick, how) })
	}
}

// A set whose node dies hard (no TCP reset: frozen, or its power cut) gets
// its next move to a display on another node within seconds: its PUBACK
// overdue by SuspectAfter, the move goes out on the standby, and the frozen
// connection is dropped. Before, the set waited for paho's ping timeout
// (30 s and more), sending the move again on the frozen connection every 10 s.
// Every move arrives, in order; the set ends on a connection of its own
// with its standby on another node, and a frozen node that goes on later
// (its held packets, the move among them, delivered late) changes nothing:
// no move goes back, the set stays online.
func TestSetOnFrozenNodeMovesOn(t *testing.T) {
	for _, how := range []string{"frozen", "power-cut"} {
		t.Run(how, func(t *testing.T) {
			c := natstest.StartFreezable(t, 3)
			// A node not leading the sessions' stream when it can be
			// (a power cut there adds nats-server's 5 s to reconnecting,
			// which the standby covers anyway).
			victim := 0
			if c.StreamLeader(natstest.SessionStream) == 0 {
				victim = 1
			}
			s := newSetOnNode(t, c, victim, "hf")
			state := func(seq int) { s.set.PublishState(protocol.State{Game: "g", MoveNumber: seq}) }
			for seq := 1; seq <= 3; seq++ {
				s.move(seq)
				state(seq)
				s.waitFor("move "+strconv.Itoa(seq), 30*time.Second, s.arrived(seq))
			}
			s.waitFor("the standby", 30*time.Second, func() bool { return s.set.Stats().Standby })
			if own, standby := where(c, 3, s.id); own != victim || standby == victim {
				t.Fatalf("the set is on node %d, its standby on %d: want %d and another", own, standby, victim)
			}
			hardDeath(c, victim, how)
			s.move(4)
			state(4)
			// SuspectAfter (2 s) and the standby's PUBACK; before, paho's
			// ping timeout (30 s and more). 8 s is for a busy machine.
			s.waitFor("move 4 after the node froze", 8*time.Second, s.arrived(4))
			for seq := 5; seq <= 8; seq++ {
				s.move(seq)
				state(seq)
			}
			s.waitFor("moves 5-8", 30*time.Second, s.arrived(8))
			s.waitFor("the set's own connection again, and a standby, neither on the frozen node", 60*time.Second, func() bool {
				st := s.set.Stats()
				own, standby := where(c, 3, s.id)
				return st.Connected && st.Standby && own >= 0 && standby >= 0 && own != standby && own != victim && standby != victim
			})
			c.Thaw(victim) // frozen: the node goes on, its held packets with it
			if how == "power-cut" {
				c.Restart(victim)
				c.WaitReady()
			}
			for seq := 9; seq <= 10; seq++ {
				s.move(seq)
			}
			s.waitFor("moves 9-10", 30*time.Second, s.arrived(10))
			s.checkArrived(10)
			// The retained state is the last one (after move 8, the set
			// published none since), not one the frozen node held.
			for i := range 3 {
				if how == "power-cut" && i == victim {
					continue
				}
				st := mqtttest.Subscriber(t, c.MQTT(i), "", "", "nf/b1/state")
				recs := st.WaitFor(t, "nf/b1/state", "the set's retained state", func(r []mqtttest.Rec) bool { return len(r) > 0 })
				var got protocol.State
				if err := json.Unmarshal([]byte(recs[0].Payload), &got); err != nil || got.MoveNumber != 8 {
					t.Errorf("node %d: retained state %s (%v), want the one after move 8", i, recs[0].Payload, err)
				}
			}
			// The set is online, as it says (its old connection's last
			// will was not published when the node went on).
			avail := mqtttest.Subscriber(t, c.MQTT((victim+1)%3), "", "", "nf/b1/availability")
			recs := avail.WaitFor(t, "nf/b1/availability", "the set's availability", func(r []mqtttest.Rec) bool { return len(r) > 0 })
			if last := recs[len(recs)-1]; last.Payload != Online {
				t.Errorf("availability %q after the node went on, want %q", last.Payload, Online)
			}
			if st := s.set.Stats(); st.PendingMoves != 0 || !st.Connected {
				t.Errorf("stats %+v: want every move acknowledged, connected", st)
			}
		})
	}
}

// A node that is only slow (its PUBACKs late, everything it was sent
// delivered in the end) costs a duplicate, never a lost or reordered
// move: the node of a set stalls for longer than SuspectAfter while the
// set has five moves to send, then goes on and delivers what it held.
// Every move reaches a display on another node, none after a later one,
// and nothing stays in the outbox.
func TestSetOnSlowNodeOnlyDuplicates(t *testing.T) {
	c := natstest.StartFreezable(t, 3)
	s := newSetOnNode(t, c, 0, "sl")
	s.move(1)
	s.waitFor("move 1", 30*time.Second, s.arrived(1))
	var own int
	s.waitFor("the set and its standby on two nodes", 30*time.Second, func() bool {
		var standby int
		own, standby = where(c, 3, s.id)
		return s.set.Stats().Standby && own >= 0 && standby >= 0 && own != standby
	})
	c.Freeze(own)
	for seq := 2; seq <= 6; seq++ {
		s.move(seq)
	}
	// The node stalls until the set has found it slow (SuspectAfter) and
	// sent a move on its standby too, however slow the machine.
	s.waitFor("the set to find its node slow", 30*time.Second, func() bool { return s.overdue.Load() > 0 })
	c.Thaw(own)
	s.waitFor("moves 2-6", 30*time.Second, s.arrived(6))
	s.waitFor("every move acknowledged", 30*time.Second, func() bool { return s.set.Stats().PendingMoves == 0 })
	for seq := 7; seq <= 8; seq++ {
		s.move(seq)
	}
	s.waitFor("moves 7-8", 30*time.Second, s.arrived(8))
	s.checkArrived(8)
}
