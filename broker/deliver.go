package broker

import (
	"bytes"
	"math"
	"sort"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// The store hook delivers the QoS 1 and 2 messages queued for each client
// itself, so that a persistent session gets every message once per
// connection, in the order they were queued, however often it reconnects.
// mochi v2.7.9 does not (issue 22, a display reconnecting every second or
// so, half the time killed, lost a move in 80 and got 8 to 14 out of order):
//
//   - When a client takes its session over, mochi registers the new
//     connection before it sends the CONNACK and resends the queue, and
//     writes messages published meanwhile through the connection's writer
//     goroutine: they overtake the queued ones (44, 46, 45, 47) and may
//     even precede the CONNACK.
//   - mochi resends a queue sorted by the low 16 bits of the messages'
//     creation times in seconds, with an unstable sort: messages queued
//     within one second come back in any order.
//   - When it takes a session over, mochi drops the old connection's queue
//     through OnQosDropped after copying it; the copy lives on, but a hook
//     that forgets dropped messages (as this one did) loses their order and
//     stored copies, and then the messages themselves. A message queued to
//     the old connection after the copy is lost with it.
//
// So: each connection has a delivery, a goroutine that writes the queued
// messages not yet written on that connection, lowest place in the queue
// first, within the client's receive maximum. mochi's own writes of queued
// messages are vetoed in OnPacketEncode (a packet whose size limit is 1
// byte is never written; mochi's writer logs it at debug level and goes
// on), except its resend of the queue at a session takeover, which runs
// before the delivery starts and which the hook puts in queue order: at the
// CONNACK it renumbers the queued messages' creation times 0, 1, 2... in
// queue order, and OnPublish gives every publication a creation time that
// sorts after those (0x8000 + a counter, in the low 16 bits). mochi's own
// flow control, which would write messages from the reading goroutine, is
// turned off; the delivery keeps the client's receive maximum instead.

// writeMark, as a packet's size limit, marks the delivery's own writes.
const writeMark = math.MaxUint32 - 0x7d

// delivery writes the queued messages to one connection of a client.
type delivery struct {
	cl      *mochi.Client
	live    bool            // the CONNACK and mochi's resend are done: the goroutine writes
	written map[uint16]bool // ids written on this connection, not yet acknowledged
	wake    chan struct{}
	stop    chan struct{}
	once    sync.Once
}

func newDelivery(cl *mochi.Client) *delivery {
	return &delivery{cl: cl, written: map[uint16]bool{}, wake: make(chan struct{}, 1), stop: make(chan struct{})}
}

// poke makes the delivery look for messages to write.
func (d *delivery) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *delivery) close() { d.once.Do(func() { close(d.stop) }) }

// goLive starts cl's delivery once mochi has sent the CONNACK and resent
// what it had in flight, with the messages queued meanwhile for the
// connection it took over.
func (h *storeHook) goLive(cl *mochi.Client) {
	h.mu.Lock()
	d := h.conns[cl.ID]
	if d == nil || d.cl != cl {
		if d != nil {
			d.close()
		}
		d = newDelivery(cl)
		h.conns[cl.ID] = d
	}
	d.live = true
	cl.State.Inflight.ResetSendQuota(0)
	store := h.adoptOrphans(cl) // any queued to the old connection since the CONNACK
	h.mu.Unlock()
	h.storeAdopted(cl, store)
	go h.deliver(d)
	d.poke()
}

// deliver is a delivery's goroutine.
func (h *storeHook) deliver(d *delivery) {
	for {
		select {
		case <-d.stop:
			return
		case <-d.wake:
		}
		for {
			batch := h.batch(d)
			if len(batch) == 0 {
				break
			}
			for _, m := range batch {
				m.Mods.MaxSize = writeMark
				if err := d.cl.WritePacket(m); err != nil {
					return // the connection is gone; the messages stay queued
				}
			}
		}
	}
}

// batch returns the messages d writes next, in queue order, and counts
// them as written.
func (h *storeHook) batch(d *delivery) []packets.Packet {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-d.stop:
		return nil
	default:
	}
	cl := d.cl
	ord := h.order[cl.ID]
	room := math.MaxInt
	if p := cl.Properties.Props; cl.Properties.ProtocolVersion == 5 && p.ReceiveMaximum > 0 {
		room = int(p.ReceiveMaximum)
	}
	var next []packets.Packet
	for _, m := range cl.State.Inflight.GetAll(false) {
		if m.FixedHeader.Type != packets.Publish || m.FixedHeader.Qos == 0 {
			continue
		}
		if d.written[m.PacketID] {
			room--
			continue
		}
		if q, known := ord[m.PacketID]; known && q.ready {
			next = append(next, m)
		}
	}
	sort.Slice(next, func(i, j int) bool { return ord[next[i].PacketID].order < ord[next[j].PacketID].order })
	if room < len(next) {
		next = next[:max(room, 0)]
	}
	for i, m := range next {
		q := ord[m.PacketID]
		next[i].FixedHeader.Dup = q.sent
		q.sent = true
		ord[m.PacketID] = q
		d.written[m.PacketID] = true
	}
	return next
}

// OnPacketEncode vetoes mochi's writes of queued messages (the delivery
// writes them), except its resend of the queue before the delivery starts;
// at a CONNACK for a session taken up again it puts the queue in order for
// that resend.
func (h *storeHook) OnPacketEncode(cl *mochi.Client, pk packets.Packet) packets.Packet {
	if cl.Net.Inline {
		return pk
	}
	switch {
	case pk.FixedHeader.Type == packets.Connack && pk.SessionPresent:
		cl.State.Inflight.ResetSendQuota(0)
		h.mu.Lock()
		store := h.adoptOrphans(cl)
		h.mu.Unlock()
		h.storeAdopted(cl, store)
		h.normalize(cl)
	case pk.FixedHeader.Type == packets.Publish && pk.FixedHeader.Qos > 0:
		if pk.Mods.MaxSize == writeMark {
			pk.Mods.MaxSize = cl.Properties.Props.MaximumPacketSize
			return pk
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if d := h.conns[cl.ID]; d != nil && d.cl == cl && !d.live && pk.FixedHeader.Dup {
			d.written[pk.PacketID] = true // mochi's resend, in queue order
			if q, ok := h.order[cl.ID][pk.PacketID]; ok {
				q.sent = true
				h.order[cl.ID][pk.PacketID] = q
			}
			return pk
		}
		pk.Mods.MaxSize = 1 // not written: the delivery writes it in its turn
	}
	return pk
}

// normalize sets the creation times of cl's queued messages to base+0,
// base+1, ... in queue order, base a multiple of 2^16, so that mochi's
// resend sorts them in that order; messages without a place yet (being
// queued right now) keep OnPublish's times, which sort after them.
func (h *storeHook) normalize(cl *mochi.Client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ord := h.order[cl.ID]
	var msgs []packets.Packet
	for _, m := range cl.State.Inflight.GetAll(false) {
		if _, known := ord[m.PacketID]; known && m.FixedHeader.Type == packets.Publish {
			msgs = append(msgs, m)
		}
	}
	sort.Slice(msgs, func(i, j int) bool { return ord[msgs[i].PacketID].order < ord[msgs[j].PacketID].order })
	base := time.Now().Unix() &^ 0xffff
	for i, m := range msgs {
		m.Created = base + int64(i)
		cl.State.Inflight.Set(m)
	}
}

// createdStamp is the creation time OnPublish gives a publication: it only
// orders mochi's resend (the broker's maximum message expiry is off), so it
// counts from 0x8000 in the low 16 bits, after any queue normalize
// renumbered (Limits caps MaxQueued below 0x8000). A publication with
// a message expiry keeps its time.
func (h *storeHook) createdStamp(pk packets.Packet) int64 {
	if pk.Properties.MessageExpiryInterval != 0 {
		return pk.Created
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.created++
	return time.Now().Unix()&^0xffff + 0x8000 + h.created%0x8000
}

// adopted is a message adopted by a connection, to store.
type adopted struct {
	pk packets.Packet
	q  queued
}

// adopt takes a message mochi queued for a connection that a new one is
// taking over (after copying its queue, so the copy may lack it) to the new
// connection, with its place in the queue given now; before the new
// connection's CONNACK it is kept for then (adoptOrphans). It returns the
// new connection's delivery (to poke once stored) and what to store for
// it. Call with h.mu held.
func (h *storeHook) adopt(old *mochi.Client, pk packets.Packet) (*delivery, []adopted) {
	h.next++
	a := adopted{pk, queued{order: h.next, size: len(pk.Payload)}}
	d := h.conns[old.ID]
	if d == nil || d.cl == old || !d.live {
		h.orphans[old.ID] = append(h.orphans[old.ID], a)
		return nil, nil
	}
	return d, h.adoptInto(d.cl, a)
}

// adoptOrphans adopts the messages kept for cl's connection. Call with
// h.mu held.
func (h *storeHook) adoptOrphans(cl *mochi.Client) []adopted {
	var store []adopted
	for _, a := range h.orphans[cl.ID] {
		store = append(store, h.adoptInto(cl, a)...)
	}
	delete(h.orphans, cl.ID)
	return store
}

// adoptInto queues a.pk for cl at a.q's place, as mochi's copy of the old
// queue (same id and message) or under a new id. Call with h.mu held.
func (h *storeHook) adoptInto(cl *mochi.Client, a adopted) []adopted {
	ord := h.order[cl.ID]
	if ord == nil {
		ord = map[uint16]queued{}
		h.order[cl.ID] = ord
	}
	a.q.ready = !persistent(cl)
	if m, ok := cl.State.Inflight.Get(a.pk.PacketID); ok && m.TopicName == a.pk.TopicName && bytes.Equal(m.Payload, a.pk.Payload) {
		if _, known := ord[m.PacketID]; known {
			return nil
		}
		ord[m.PacketID] = a.q
		h.size[cl.ID] += a.q.size
		return []adopted{{m, a.q}}
	}
	if h.holds(cl, a.pk) {
		return nil
	}
	id, err := cl.NextPacketID()
	if err != nil {
		h.log.Warn("mqtt: embedded broker: no packet id left; dropping a message", "client", cl.ID, "topic", a.pk.TopicName)
		return nil
	}
	a.pk.PacketID = uint16(id)
	cl.State.Inflight.Set(a.pk)
	ord[a.pk.PacketID] = a.q
	h.size[cl.ID] += a.q.size
	return []adopted{a}
}

func (h *storeHook) storeAdopted(cl *mochi.Client, a []adopted) {
	if !persistent(cl) {
		return
	}
	for _, m := range a {
		h.storeQueued(cl, m.pk, m.q)
	}
}
