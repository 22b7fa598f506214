package web

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/tridboard/tridboard/protocol"
)

// Whatever a hostile MQTT client publishes, the hub never panics, and what
// it draws stays encodable.
func FuzzHubPayloads(f *testing.F) {
	set := newFakeSet(f, nil, "b1", "st3d")
	set.play("b2W-b4N")
	st, _ := json.Marshal(set.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"a2W"}}))
	mv, _ := json.Marshal(set.sent[0])
	f.Add(st, mv, []byte(`{"type":"lift","cells":["d1W","QL1"]}`))
	f.Add([]byte(`{"game":"g","variant":"millennium","moves":["1e2-1e4","zz"],"last_move":{"seq":-5}}`), []byte(`{"seq":3,"game":"g","move":"1e7-1e5","position":"x"}`), []byte(`{"type":"take_back"}`))
	f.Add([]byte(`{"game":"g","variant":"first-contact","start":"garbage"}`), []byte(`{}`), []byte(`{"type":"new_game","game":"h"}`))
	f.Fuzz(func(t *testing.T, state, move, event []byte) {
		h := NewHub(DefaultOpts())
		var s protocol.State
		if json.Unmarshal(state, &s) == nil {
			h.State("b", s)
		}
		var m protocol.Move
		if json.Unmarshal(move, &m) == nil {
			h.Move("b", m)
		}
		var e protocol.Event
		if json.Unmarshal(event, &e) == nil {
			h.Event("b", e)
			h.State("b", s)
			h.Move("b", m)
		}
		if v, ok := h.View("b"); ok {
			if _, err := json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.Record("b"); err == nil {
			if err := h.WriteRecord(io.Discard, "b"); err != nil {
				t.Fatal(err)
			}
		}
	})
}
