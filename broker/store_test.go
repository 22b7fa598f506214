package broker

import (
	"encoding/json"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"path/filepath"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/hooks/storage"
	"github.com/mochi-mqtt/server/v2/packets"
	"github.com/tridboard/tridboard/internal/freeport"
	"go.etcd.io/bbolt"
)

// TestStorePendingHandedOutOnce: a publication a crash left pending (after
// mochi's PUBACK, before or after it was queued for an away session) is
// queued for that session at the next start, once.
func TestStorePendingHandedOutOnce(t *testing.T) {
	for _, queuedBefore := range []bool{false, true} {
		t.Run(map[bool]string{false: "not queued before the crash", true: "queued before the crash"}[queuedBefore], func(t *testing.T) {
			store := filepath.Join(t.TempDir(), "broker.db")
			addr := freeport.Addr(t)
			o := Opts{Addr: addr, StorePath: store, Logger: mqtttest.Quiet, Prefix: "tridboard", BoardID: "board"}
			b, err := Start(o)
			if err != nil {
				t.Fatal(err)
			}
			d := &pahoDisplay{id: "away", url: b.URL(), r: mqtttest.NewRecorder()}
			d.connect(t)
			d.disconnect(t)
			user, pass := b.LocalLogin()
			pub := mqtttest.Publisher(t, b.URL(), user, pass)
			if queuedBefore {
				mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, "m1"), "publish")
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
					if cl, ok := b.srv.Clients.Get("away"); ok && cl.State.Inflight.Len() == 1 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("not queued")
					}
				}
			}
			b.Close()
			// What a crash between the PUBACK and the end of the hand-out leaves.
			db, err := bbolt.Open(store, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bbolt.Tx) error {
				v, _ := json.Marshal(storage.Message{TopicName: moveTopic, Payload: []byte("m1"), FixedHeader: packetHeader(1)})
				return tx.Bucket(bucketPending).Put([]byte("\x00\x00\x00\x00\x00\x00\x00\x01"), v)
			})
			db.Close()
			b, err = Start(o)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			cl, ok := b.srv.Clients.Get("away")
			if !ok || cl.State.Inflight.Len() != 1 {
				t.Fatalf("after the restart the session holds %v messages, want 1", cl.State.Inflight.GetAll(false))
			}
		})
	}
}

func packetHeader(qos byte) (h packets.FixedHeader) {
	h.Type, h.Qos = packets.Publish, qos
	return h
}
