package broker

import (
	"github.com/tridboard/tridboard/internal/mqtttest"
	"net"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// mochi keeps one map of packet ids for both directions: acknowledging a
// client's own QoS 1 message of id X, it sets X there and deletes it. A
// message queued for the client under X between the store hook's look at
// the client's packet (OnPacketRead) and that acknowledgement was deleted
// unwritten and never delivered: about one run in sixty of
// TestCommandRatePerClient's flood left a command unanswered. The hook now puts
// such a message back under a new id, in its place in the queue; a message
// the client was sent is left to its own acknowledgement.
func TestQueuedMessageSurvivesTheClientsOwnID(t *testing.T) {
	srv := mochi.New(&mochi.Options{InlineClient: true})
	h := newStoreHook(srv, nil, mqtttest.Quiet, DefaultLimits())
	server, client := net.Pipe()
	defer server.Close()
	defer client.Close()
	cl := srv.NewClient(server, "tcp", "daemon", false)
	cl.Properties.ProtocolVersion = 4
	cl.Properties.Clean = true

	queue := func(id uint16, payload string) packets.Packet {
		pk := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Publish, Qos: 1},
			TopicName: "tridboard/board/set/resync", Payload: []byte(payload), PacketID: id}
		cl.State.Inflight.Set(pk)
		h.OnQosPublish(cl, pk, 0, 0)
		return pk
	}
	ack := func(id uint16) { // mochi's acknowledgement of the client's own message id
		a := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Puback}, PacketID: id}
		cl.State.Inflight.Set(a)
		cl.State.Inflight.Delete(id)
		h.OnQosComplete(cl, a)
	}
	first := queue(7, `{"transaction":31}`)
	second := queue(8, `{"transaction":32}`)
	ack(8) // the client's reply carried id 8 too
	var got []string
	for _, m := range cl.State.Inflight.GetAll(false) {
		if m.FixedHeader.Type == packets.Publish {
			got = append(got, string(m.Payload))
			if string(m.Payload) == string(second.Payload) && m.PacketID == 8 {
				t.Errorf("put back under the id the client uses")
			}
		}
	}
	if len(got) != 2 {
		t.Fatalf("queued for the client after the acknowledgement: %v, want both commands", got)
	}
	h.mu.Lock()
	ord := h.order[cl.ID]
	var places []uint64
	for _, m := range cl.State.Inflight.GetAll(false) {
		places = append(places, ord[m.PacketID].order)
	}
	h.mu.Unlock()
	if len(ord) != 2 || ord[first.PacketID].order >= maxOrder(ord) {
		t.Errorf("queue places %v (%v): the second command lost its place after the first", places, ord)
	}

	// A message written to the client is its own acknowledgement's to
	// complete: the same id from mochi completes it.
	d := newDelivery(cl)
	h.mu.Lock()
	h.conns[cl.ID] = d
	d.written[first.PacketID] = true
	h.mu.Unlock()
	cl.State.Inflight.Delete(first.PacketID)
	h.OnQosComplete(cl, packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Puback}, PacketID: first.PacketID})
	h.mu.Lock()
	_, still := h.order[cl.ID][first.PacketID]
	h.mu.Unlock()
	if still {
		t.Error("a written message acknowledged is still queued")
	}
}

func maxOrder(ord map[uint16]queued) uint64 {
	var m uint64
	for _, q := range ord {
		m = max(m, q.order)
	}
	return m
}
