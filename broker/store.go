package broker

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/storage"
	"github.com/mochi-mqtt/server/v2/packets"
	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// storeHook keeps the embedded broker's persistent sessions in a bbolt file:
// the sessions, their subscriptions and the QoS 1 messages queued for them,
// and the retained messages. It replaces mochi's bolt hook (v2.7.9), which
// stores queued messages without their packet id: after a restart mochi
// resends them with id 0 and a display's client drops the connection
// ("resend inflight: protocol violation: missing packet id"), every second,
// forever.
//
// It also delivers the QoS 1 and 2 messages queued for a client, every one
// once per connection and in the order they were queued (see
// deliver.go): mochi v2.7.9 loses and reorders them for a display
// that reconnects often. And it works around a further fault of mochi:
//
//   - mochi keeps its own packet ids and the client's in one map: a SUBSCRIBE
//     (or a QoS 1 PUBLISH) from the client with the id of a message the
//     broker has in flight to it is refused ("All subscription requests were
//     denied"), or deletes that message. MQTT numbers each direction on its
//     own; mosquitto_sub and paho both start at 1, as does mochi. The hook
//     moves the broker's message to a free id before mochi looks, and maps
//     the client's PUBACK of the old id to the new one.
//
// mochi acknowledges a QoS 1 message before it queues it for the
// subscribers' sessions: a crash in between would lose the message for a
// display that is away, although the daemon took the PUBACK as delivery.
// When a persistent session subscribes to the topic, the hook therefore
// writes the message to a "pending" bucket before the PUBACK and deletes it
// once mochi has handed it out; at start-up, pending messages are handed out
// again to the sessions that do not hold them yet.
//
// Only persistent sessions are stored (clean session off, or an MQTT 5
// session expiry): the daemon's own client and other clean sessions cost no
// disk writes. A write that fails (a full disk) is logged and the broker goes
// on from memory; the file is never needed to keep running.
type storeHook struct {
	mochi.HookBase
	srv    *mochi.Server
	db     *bbolt.DB
	log    *slog.Logger
	limits Limits

	mu      sync.Mutex
	next    uint64                       // the last queue order number given
	order   map[string]map[uint16]queued // client -> packet id -> its place in the queue
	size    map[string]int               // client -> bytes of queued payloads
	alias   map[string]map[uint16]uint16 // client -> id the client acknowledges -> id in mochi's map
	full    map[string]bool              // clients whose queue overflowed (logged once)
	pending map[pendingID][]byte         // publications being handed out -> their pending key
	conns   map[string]*delivery         // client -> its connection's delivery
	orphans map[string][]adopted         // client -> messages queued for a connection being taken over
	created int64                        // the last Created given by OnPublish
	failing bool                         // the last write failed
	// failWrites, for tests, makes every write fail like a full disk.
	failWrites func() error
}

var (
	bucketClients  = []byte("clients")
	bucketSubs     = []byte("subscriptions")
	bucketInflight = []byte("inflight")
	bucketRetained = []byte("retained")
	bucketPending  = []byte("pending")
)

// pendingID names a publication from a client while mochi handles it.
type pendingID struct {
	client string
	id     uint16
}

// queued is a message's place in its session's queue, and its size.
type queued struct {
	order uint64
	size  int
	sent  bool // written to a connection once (DUP when written again)
	ready bool // stored (or needs no storing): the delivery may write it
	// pk is the message, kept to put it back in mochi's map if mochi
	// drops it there unwritten (OnQosComplete); zero for a message loaded
	// from the store.
	pk packets.Packet
}

// inflightRecord is a queued message and its place in the session's queue.
type inflightRecord struct {
	Msg   storage.Message `json:"m"`
	Order uint64          `json:"o"`
}

// openStore opens (or creates) the store at path. A file that bbolt cannot
// open (damaged) is renamed aside and a new one is made; when not even that
// works (a full or read-only disk) the broker runs without a store, which
// is logged: the daemon must come up whatever its disk holds.
func openStore(path string, log *slog.Logger) (*bbolt.DB, error) {
	open := func() (*bbolt.DB, error) {
		db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: 2 * time.Second})
		if err != nil {
			return nil, err
		}
		err = db.Update(func(tx *bbolt.Tx) error {
			tx.DeleteBucket([]byte("mochi")) // mochi's bolt hook, before this store
			for _, b := range [][]byte{bucketClients, bucketSubs, bucketInflight, bucketRetained, bucketPending} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			db.Close()
			return nil, err
		}
		return db, nil
	}
	db, err := open()
	if err == nil {
		return db, nil
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("store %s: in use by another process", path)
	}
	if _, serr := os.Stat(path); serr == nil {
		aside := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405Z")
		if rerr := os.Rename(path, aside); rerr == nil {
			log.Error("mqtt: embedded broker: store damaged; moved aside, starting with an empty one", "store", path, "aside", aside, "err", err)
			if db, err2 := open(); err2 == nil {
				return db, nil
			} else {
				err = err2
			}
		}
	}
	log.Error("mqtt: embedded broker: store unusable; persistent sessions are kept in memory only", "store", path, "err", err)
	return nil, nil
}

func newStoreHook(srv *mochi.Server, db *bbolt.DB, log *slog.Logger, l Limits) *storeHook {
	return &storeHook{srv: srv, db: db, log: log, limits: l,
		order: map[string]map[uint16]queued{}, size: map[string]int{},
		alias: map[string]map[uint16]uint16{}, full: map[string]bool{}, pending: map[pendingID][]byte{},
		conns: map[string]*delivery{}, orphans: map[string][]adopted{}}
}

func (h *storeHook) ID() string { return "tridboard-store" }

// Stop closes the store when the broker stops.
func (h *storeHook) Stop() error {
	if h.db == nil {
		return nil
	}
	err := h.db.Close()
	h.db = nil
	return err
}

func (h *storeHook) Provides(b byte) bool {
	return bytes.Contains([]byte{
		mochi.OnSessionEstablish, mochi.OnSessionEstablished, mochi.OnDisconnect,
		mochi.OnSubscribed, mochi.OnUnsubscribed, mochi.OnRetainMessage, mochi.OnWillSent,
		mochi.OnQosPublish, mochi.OnQosComplete, mochi.OnQosDropped, mochi.OnPacketRead,
		mochi.OnClientExpired, mochi.OnRetainedExpired, mochi.OnPublish, mochi.OnPublished, mochi.OnPacketEncode,
		mochi.StoredClients, mochi.StoredInflightMessages, mochi.StoredRetainedMessages, mochi.StoredSubscriptions,
	}, []byte{b})
}

// persistent says whether cl's session outlives its connection.
func persistent(cl *mochi.Client) bool {
	if cl.Net.Inline {
		return false
	}
	if cl.Properties.ProtocolVersion == 5 {
		return cl.Properties.Props.SessionExpiryInterval > 0
	}
	return !cl.Properties.Clean
}

func clientPrefix(id string) []byte { return append([]byte(id), 0) }

func inflightKey(id string, pid uint16) []byte {
	return binary.BigEndian.AppendUint16(clientPrefix(id), pid)
}

// write runs f in a read-write transaction; a failure is logged (once until
// writes work again) and otherwise ignored.
func (h *storeHook) write(f func(tx *bbolt.Tx) error) {
	if h.db == nil {
		return
	}
	var err error
	if h.failWrites != nil {
		err = h.failWrites()
	}
	if err == nil {
		err = h.db.Update(f)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case err != nil && !h.failing:
		h.failing = true
		h.log.Error("mqtt: embedded broker: store write failed; going on from memory", "err", err)
	case err == nil && h.failing:
		h.failing = false
		h.log.Info("mqtt: embedded broker: store writes work again")
	}
}

func put(tx *bbolt.Tx, bucket, key []byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return tx.Bucket(bucket).Put(key, b)
}

// deleteClient removes everything stored for a client id.
func deleteClient(tx *bbolt.Tx, id string) error {
	if err := tx.Bucket(bucketClients).Delete([]byte(id)); err != nil {
		return err
	}
	p := clientPrefix(id)
	for _, name := range [][]byte{bucketSubs, bucketInflight} {
		c := tx.Bucket(name).Cursor()
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
	}
	return nil
}

// OnSessionEstablish runs before mochi hands a stored session to a
// connecting client: the client's connection gets a delivery, which
// holds its queued messages back until mochi has sent the CONNACK and
// resent what was in flight (see OnPacketEncode).
func (h *storeHook) OnSessionEstablish(cl *mochi.Client, pk packets.Packet) {
	if cl.Net.Inline {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.alias, cl.ID) // ids the old connection's client knew
	if d := h.conns[cl.ID]; d != nil {
		d.close()
	}
	h.conns[cl.ID] = newDelivery(cl)
}

// OnSessionEstablished stores a persistent session, and forgets whatever was
// stored under the id of a clean one.
func (h *storeHook) OnSessionEstablished(cl *mochi.Client, pk packets.Packet) {
	if cl.Net.Inline {
		return
	}
	h.goLive(cl)
	if !persistent(cl) {
		h.write(func(tx *bbolt.Tx) error { return deleteClient(tx, cl.ID) })
		return
	}
	h.saveClient(cl)
}

func (h *storeHook) OnWillSent(cl *mochi.Client, pk packets.Packet) {
	if persistent(cl) {
		h.saveClient(cl)
	}
}

func (h *storeHook) saveClient(cl *mochi.Client) {
	p := cl.Properties.Props
	in := storage.Client{
		ID: cl.ID, T: storage.ClientKey, Remote: cl.Net.Remote, Listener: cl.Net.Listener,
		Username: cl.Properties.Username, Clean: cl.Properties.Clean, ProtocolVersion: cl.Properties.ProtocolVersion,
		Properties: storage.ClientProperties{
			SessionExpiryInterval: p.SessionExpiryInterval, SessionExpiryIntervalFlag: p.SessionExpiryIntervalFlag,
			ReceiveMaximum: p.ReceiveMaximum, TopicAliasMaximum: p.TopicAliasMaximum,
			User: p.User, MaximumPacketSize: p.MaximumPacketSize,
		},
		Will: storage.ClientWill(cl.Properties.Will),
	}
	h.write(func(tx *bbolt.Tx) error { return put(tx, bucketClients, []byte(cl.ID), in) })
}

func (h *storeHook) OnDisconnect(cl *mochi.Client, _ error, expire bool) {
	h.mu.Lock()
	if d := h.conns[cl.ID]; d != nil && d.cl == cl {
		d.close()
		delete(h.conns, cl.ID)
	}
	h.mu.Unlock()
	if !expire || cl.StopCause() == packets.ErrSessionTakenOver || cl.Net.Inline {
		return
	}
	h.forget(cl.ID)
	h.write(func(tx *bbolt.Tx) error { return deleteClient(tx, cl.ID) })
}

func (h *storeHook) OnClientExpired(cl *mochi.Client) {
	h.forget(cl.ID)
	h.write(func(tx *bbolt.Tx) error { return deleteClient(tx, cl.ID) })
}

func (h *storeHook) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.order, id)
	delete(h.size, id)
	delete(h.alias, id)
	delete(h.full, id)
	delete(h.orphans, id)
	if d := h.conns[id]; d != nil {
		d.close()
		delete(h.conns, id)
	}
}

func (h *storeHook) OnSubscribed(cl *mochi.Client, pk packets.Packet, codes []byte) {
	if !persistent(cl) {
		return
	}
	h.write(func(tx *bbolt.Tx) error {
		for i, f := range pk.Filters {
			if i >= len(codes) || codes[i] >= packets.ErrUnspecifiedError.Code {
				continue
			}
			s := storage.Subscription{ID: cl.ID + ":" + f.Filter, T: storage.SubscriptionKey, Client: cl.ID,
				Filter: f.Filter, Qos: codes[i], Identifier: f.Identifier, NoLocal: f.NoLocal,
				RetainHandling: f.RetainHandling, RetainAsPublished: f.RetainAsPublished}
			if err := put(tx, bucketSubs, append(clientPrefix(cl.ID), f.Filter...), s); err != nil {
				return err
			}
		}
		return nil
	})
}

func (h *storeHook) OnUnsubscribed(cl *mochi.Client, pk packets.Packet) {
	if !persistent(cl) {
		return
	}
	h.write(func(tx *bbolt.Tx) error {
		for _, f := range pk.Filters {
			if err := tx.Bucket(bucketSubs).Delete(append(clientPrefix(cl.ID), f.Filter...)); err != nil {
				return err
			}
		}
		return nil
	})
}

func (h *storeHook) OnRetainMessage(cl *mochi.Client, pk packets.Packet, r int64) {
	if strings.HasPrefix(pk.TopicName, "$") {
		return // the broker's own $SYS topics, published again at start
	}
	if r == -1 {
		h.write(func(tx *bbolt.Tx) error { return tx.Bucket(bucketRetained).Delete([]byte(pk.TopicName)) })
		return
	}
	m := message2storage(pk)
	m.Client = cl.ID
	h.write(func(tx *bbolt.Tx) error { return put(tx, bucketRetained, []byte(pk.TopicName), m) })
}

func (h *storeHook) OnRetainedExpired(topic string) {
	h.write(func(tx *bbolt.Tx) error { return tx.Bucket(bucketRetained).Delete([]byte(topic)) })
}

func message2storage(pk packets.Packet) storage.Message {
	p := pk.Properties
	return storage.Message{
		T: storage.InflightKey, Origin: pk.Origin, FixedHeader: pk.FixedHeader, TopicName: pk.TopicName,
		Payload: pk.Payload, Created: pk.Created, PacketID: pk.PacketID,
		Properties: storage.MessageProperties{
			PayloadFormat: p.PayloadFormat, PayloadFormatFlag: p.PayloadFormatFlag,
			MessageExpiryInterval: p.MessageExpiryInterval, ContentType: p.ContentType,
			ResponseTopic: p.ResponseTopic, CorrelationData: p.CorrelationData, User: p.User,
		},
	}
}

// OnQosPublish numbers a message newly queued for cl, drops it when cl's
// queue is full (Limits.MaxQueuedBytes; mochi bounds the count with
// MaximumInflight), stores it for a persistent session and wakes cl's
// delivery. mochi calls it again, with the same packet id, when it resends
// the message. A message queued for a connection that a new one is taking
// over goes to the new one (see adopt).
func (h *storeHook) OnQosPublish(cl *mochi.Client, pk packets.Packet, sent int64, resends int) {
	if pk.FixedHeader.Type != packets.Publish || cl.Net.Inline {
		return // the broker's acknowledgements of the client's QoS 2 messages
	}
	h.mu.Lock()
	if cl.IsTakenOver() {
		d, store := h.adopt(cl, pk)
		h.mu.Unlock()
		if d != nil {
			h.storeAdopted(d.cl, store)
			d.poke()
		}
		return
	}
	q, known, ok := h.enqueue(cl, pk)
	d := h.conns[cl.ID]
	h.mu.Unlock()
	if !ok {
		return
	}
	if !known && persistent(cl) {
		h.storeQueued(cl, pk, q) // before the delivery may write it and get its PUBACK
	}
	if d != nil && d.cl == cl {
		d.poke()
	}
}

// enqueue gives pk its place in cl's queue, unless it has one (known) or
// the queue is full or holds it already (!ok: then it is deleted from
// cl's map). Call with h.mu held.
func (h *storeHook) enqueue(cl *mochi.Client, pk packets.Packet) (q queued, known, ok bool) {
	ord := h.order[cl.ID]
	if ord == nil {
		ord = map[uint16]queued{}
		h.order[cl.ID] = ord
	}
	if q, known = ord[pk.PacketID]; known {
		return q, true, true
	}
	if dup := h.holds(cl, pk); dup || h.size[cl.ID]+len(pk.Payload) > h.limits.MaxQueuedBytes {
		cl.State.Inflight.Delete(pk.PacketID)
		cl.State.Inflight.IncreaseSendQuota() // mochi takes one for the message right after
		if !dup && !h.full[cl.ID] {
			h.full[cl.ID] = true
			h.log.Warn("mqtt: embedded broker: session queue full; dropping its new messages",
				"client", cl.ID, "bytes", h.size[cl.ID], "limit", h.limits.MaxQueuedBytes)
		}
		return q, false, false
	}
	h.next++
	q = queued{order: h.next, size: len(pk.Payload), ready: !persistent(cl), pk: pk}
	ord[pk.PacketID] = q
	h.size[cl.ID] += q.size
	return q, false, true
}

// storeQueued stores a message queued for cl, then lets the delivery write
// it: stored after its PUBACK, it would come back after a restart.
func (h *storeHook) storeQueued(cl *mochi.Client, pk packets.Packet, q queued) {
	rec := inflightRecord{Msg: message2storage(pk), Order: q.order}
	rec.Msg.Client = cl.ID
	h.write(func(tx *bbolt.Tx) error { return put(tx, bucketInflight, inflightKey(cl.ID, pk.PacketID), rec) })
	h.mu.Lock()
	ord := h.order[cl.ID]
	for id, o := range ord { // found by its place: OnPacketRead may have moved it
		if o.order == q.order {
			o.ready = true
			ord[id] = o
		}
	}
	_, here := ord[pk.PacketID]
	h.mu.Unlock()
	// Moved to another id (stored there) or dropped meanwhile: this record
	// would come back after a restart.
	stale := !here
	if stale {
		h.write(func(tx *bbolt.Tx) error { return tx.Bucket(bucketInflight).Delete(inflightKey(cl.ID, pk.PacketID)) })
	}
}

// holds says whether cl's queue holds a message like pk already: the same
// publication handed out again (a pending one at start-up), or sent again
// by the daemon after a lost PUBACK. Duplicates are byte-identical, and a
// session needs no second copy of a message it has not acknowledged yet.
func (h *storeHook) holds(cl *mochi.Client, pk packets.Packet) bool {
	for _, m := range cl.State.Inflight.GetAll(false) {
		if m.PacketID != pk.PacketID && m.FixedHeader.Type == packets.Publish && m.TopicName == pk.TopicName && bytes.Equal(m.Payload, pk.Payload) {
			return true
		}
	}
	return false
}

// OnQosComplete forgets a message cl acknowledged. mochi also calls it with
// its own PUBACK of a QoS 1 message from cl, which may carry the id of a
// message queued for cl: what is still in mochi's map stays.
func (h *storeHook) OnQosComplete(cl *mochi.Client, pk packets.Packet) {
	if m, ok := cl.State.Inflight.Get(pk.PacketID); ok && m.FixedHeader.Type == packets.Publish {
		return
	}
	if h.requeue(cl, pk.PacketID) {
		return
	}
	h.dequeue(cl, pk.PacketID)
}

// requeue puts back, under a new id, a message queued for cl and never
// written that mochi took out of its map: a PUBACK cannot be for it, so
// this is mochi acknowledging cl's own QoS 1 message of the same id, which
// it does by setting and then deleting that id in the one map it keeps for
// both directions. OnPacketRead renumbers a message already queued under
// that id; one queued between that hook and mochi's acknowledgement (a
// command from another client, routed meanwhile) was lost: about one run
// in sixty of TestCommandRatePerClient's flood. It reports whether it put
// the message back.
func (h *storeHook) requeue(cl *mochi.Client, id uint16) bool {
	h.mu.Lock()
	q, known := h.order[cl.ID][id]
	d := h.conns[cl.ID]
	if !known || q.pk.FixedHeader.Type != packets.Publish || q.sent || (d != nil && d.cl == cl && d.written[id]) {
		h.mu.Unlock()
		return false
	}
	h.mu.Unlock()
	next, err := cl.NextPacketID() // not under h.mu: mochi holds its own locks around hooks
	if err != nil {
		return false // no free id: it is dropped, as mochi would
	}
	m := q.pk
	m.PacketID = uint16(next)
	h.mu.Lock()
	if cur, ok := h.order[cl.ID][id]; !ok || cur.order != q.order {
		h.mu.Unlock()
		return true // dropped meanwhile (the session ended)
	}
	cl.State.Inflight.Set(m)
	delete(h.order[cl.ID], id)
	h.order[cl.ID][m.PacketID] = q
	h.mu.Unlock()
	h.storeRenumbered(cl, id, m, q.order)
	if d != nil && d.cl == cl {
		d.poke()
	}
	return true
}

// OnQosDropped forgets a message mochi dropped, except when it drops the
// queue of a connection taken over by a new one: the new connection has the
// messages (mochi copied them), and the hook keeps their place and their
// stored copy.
func (h *storeHook) OnQosDropped(cl *mochi.Client, pk packets.Packet) {
	if cl.IsTakenOver() {
		return
	}
	h.dequeue(cl, pk.PacketID)
}

func (h *storeHook) dequeue(cl *mochi.Client, id uint16) {
	h.mu.Lock()
	if d := h.conns[cl.ID]; d != nil && d.cl == cl {
		delete(d.written, id)
		d.poke() // room in the client's receive window
	}
	q, known := h.order[cl.ID][id]
	if known {
		delete(h.order[cl.ID], id)
		h.size[cl.ID] -= q.size
		if h.size[cl.ID] < h.limits.MaxQueuedBytes/2 {
			delete(h.full, cl.ID)
		}
	}
	h.mu.Unlock()
	if known && persistent(cl) {
		h.write(func(tx *bbolt.Tx) error { return tx.Bucket(bucketInflight).Delete(inflightKey(cl.ID, id)) })
	}
}

// OnPacketRead renumbers a message in flight to cl whose id cl now uses
// for a packet of its own (see storeHook), and maps cl's PUBACK of the old
// id to the new one.
func (h *storeHook) OnPacketRead(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	switch t := pk.FixedHeader.Type; {
	case t == packets.Puback:
		h.mu.Lock()
		if to, ok := h.alias[cl.ID][pk.PacketID]; ok {
			delete(h.alias[cl.ID], pk.PacketID)
			pk.PacketID = to
		}
		h.mu.Unlock()
	case t == packets.Subscribe || t == packets.Unsubscribe || (t == packets.Publish && pk.FixedHeader.Qos > 0):
		m, ok := cl.State.Inflight.Get(pk.PacketID)
		if !ok || m.FixedHeader.Type != packets.Publish {
			break
		}
		id, err := cl.NextPacketID()
		if err != nil {
			break // no free id: mochi refuses the client's packet, as before
		}
		from := m.PacketID
		cl.State.Inflight.Delete(from)
		m.PacketID = uint16(id)
		cl.State.Inflight.Set(m)
		h.mu.Lock()
		q, known := h.order[cl.ID][from]
		if known {
			delete(h.order[cl.ID], from)
			h.order[cl.ID][m.PacketID] = q
		}
		if d := h.conns[cl.ID]; d != nil && d.cl == cl && d.written[from] {
			// Written under the old id: the client acknowledges that one.
			// A message not written yet goes out under the new id, and an
			// alias for it would stay until the old id, given to another
			// message, is acknowledged, and complete the wrong one.
			delete(d.written, from)
			d.written[m.PacketID] = true
			if h.alias[cl.ID] == nil {
				h.alias[cl.ID] = map[uint16]uint16{}
			}
			h.alias[cl.ID][from] = m.PacketID
		}
		h.mu.Unlock()
		h.storeRenumbered(cl, from, m, q.order)
	}
	return pk, nil
}

// storeRenumbered moves the stored copy of a persistent session's queued
// message from id from to m's id.
func (h *storeHook) storeRenumbered(cl *mochi.Client, from uint16, m packets.Packet, order uint64) {
	if !persistent(cl) {
		return
	}
	rec := inflightRecord{Msg: message2storage(m), Order: order}
	rec.Msg.Client = cl.ID
	h.write(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucketInflight).Delete(inflightKey(cl.ID, from)); err != nil {
			return err
		}
		return put(tx, bucketInflight, inflightKey(cl.ID, m.PacketID), rec)
	})
}

// each calls f with every value of a bucket; records that do not decode
// are logged and skipped.
func (h *storeHook) each(bucket []byte, f func(k, v []byte) error) {
	if h.db == nil {
		return
	}
	err := h.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			if err := f(k, v); err != nil {
				h.log.Warn("mqtt: embedded broker: store: skipping a record", "bucket", string(bucket), "key", fmt.Sprintf("%q", k), "err", err)
			}
			return nil
		})
	})
	if err != nil {
		h.log.Error("mqtt: embedded broker: store read failed", "bucket", string(bucket), "err", err)
	}
}

func (h *storeHook) StoredClients() ([]storage.Client, error) {
	var out []storage.Client
	h.each(bucketClients, func(_, v []byte) error {
		var c storage.Client
		if err := json.Unmarshal(v, &c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, nil
}

func (h *storeHook) StoredSubscriptions() ([]storage.Subscription, error) {
	var out []storage.Subscription
	h.each(bucketSubs, func(_, v []byte) error {
		var s storage.Subscription
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, nil
}

func (h *storeHook) StoredInflightMessages() ([]storage.Message, error) {
	var out []storage.Message
	h.mu.Lock()
	defer h.mu.Unlock()
	h.each(bucketInflight, func(_, v []byte) error {
		var r inflightRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if r.Msg.PacketID == 0 {
			return errors.New("no packet id")
		}
		if h.order[r.Msg.Client] == nil {
			h.order[r.Msg.Client] = map[uint16]queued{}
		}
		h.order[r.Msg.Client][r.Msg.PacketID] = queued{order: r.Order, size: len(r.Msg.Payload), sent: true, ready: true}
		h.size[r.Msg.Client] += len(r.Msg.Payload)
		h.next = max(h.next, r.Order)
		out = append(out, r.Msg)
		return nil
	})
	return out, nil
}

func (h *storeHook) StoredRetainedMessages() ([]storage.Message, error) {
	var out []storage.Message
	h.each(bucketRetained, func(_, v []byte) error {
		var m storage.Message
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		out = append(out, m)
		return nil
	})
	return out, nil
}

// OnPublish writes a QoS 1 publication that a persistent session subscribes
// to into the pending bucket, before mochi acknowledges it.
func (h *storeHook) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	pk.Created = h.createdStamp(pk)
	if h.db == nil || pk.FixedHeader.Qos == 0 || cl.Net.Inline || !h.persistentSubscriber(pk.TopicName) {
		return pk, nil
	}
	h.mu.Lock()
	h.next++
	// Keys sort by time, then by order: unique across restarts, so that a
	// new pending message never takes the key of one left by a crash.
	key := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, uint64(time.Now().UnixNano())), h.next)
	h.pending[pendingID{cl.ID, pk.PacketID}] = key
	h.mu.Unlock()
	m := message2storage(pk)
	m.FixedHeader.Retain = false // the retained copy is stored on its own
	h.write(func(tx *bbolt.Tx) error { return put(tx, bucketPending, key, m) })
	return pk, nil
}

// OnPublished: mochi has queued the publication for every subscriber.
func (h *storeHook) OnPublished(cl *mochi.Client, pk packets.Packet) {
	id := pendingID{cl.ID, pk.PacketID}
	h.mu.Lock()
	key, ok := h.pending[id]
	delete(h.pending, id)
	h.mu.Unlock()
	if ok {
		h.write(func(tx *bbolt.Tx) error { return tx.Bucket(bucketPending).Delete(key) })
	}
}

func (h *storeHook) persistentSubscriber(topic string) bool {
	for id, sub := range h.srv.Topics.Subscribers(topic).Subscriptions {
		if cl, ok := h.srv.Clients.Get(id); ok && sub.Qos > 0 && persistent(cl) {
			return true
		}
	}
	return false
}

// replayPending hands out again the publications a crash left pending.
func (h *storeHook) replayPending() {
	var msgs []storage.Message
	var keys [][]byte
	h.each(bucketPending, func(k, v []byte) error {
		var m storage.Message
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		msgs = append(msgs, m)
		keys = append(keys, append([]byte(nil), k...))
		return nil
	})
	for _, m := range msgs {
		if err := h.srv.Publish(m.TopicName, m.Payload, false, m.FixedHeader.Qos); err != nil {
			h.log.Error("mqtt: embedded broker: store: pending publication", "topic", m.TopicName, "err", err)
		}
	}
	if len(keys) > 0 {
		h.log.Info("mqtt: embedded broker: handed out again the publications a crash left pending", "count", len(keys))
		h.write(func(tx *bbolt.Tx) error {
			for _, k := range keys {
				if err := tx.Bucket(bucketPending).Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
	}
}
