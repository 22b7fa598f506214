package web

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
)

// The live record is written from the payloads as the export writes it
// (game.RecordOf): Site, Date and an event's Board from the state's tags, TimeControl from
// the clock, each move's [%clk] from its move message, or from the state
// for a page that joins late; Termination once the game is over.
func TestRecordFromPayloads(t *testing.T) {
	feed := func(late bool) *Hub {
		h := NewHub(DefaultOpts())
		f := newFakeSet(t, nil, "b1", "st3d")
		f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Site": "hall", "Date": "2026.12.03", "Board": "4"}
		clks := []int64{178000, 175400, 42300}
		ctl := &clock.Snapshot{Control: "180+2", WhiteMS: 180000, BlackMS: 180000, Running: "white", At: clock.Stamp{Time: f.now}}
		state := func() protocol.State {
			s := f.state(protocol.Board{Status: protocol.BoardInSync})
			s.Clock = ctl
			return s
		}
		if !late {
			h.State("b1", state())
		}
		for i, m := range []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"} {
			mv := f.play(m)
			mv.ClkMS = &clks[i]
			if !late {
				// The move message has the clock, the state after it not.
				h.Move("b1", mv)
				h.State("b1", state())
			}
		}
		if late {
			s := state()
			s.ClkMS = clks // a late joiner has only the state
			h.State("b1", s)
		}
		return h
	}
	want := `[Event "?"]
[Site "hall"]
[Date "2026.12.03"]
[Round "?"]
[White "Kirk"]
[Black "Spock"]
[Result "*"]
[Variant "st3d"]
[Board "4"]
[TimeControl "180+2"]

1. b3W {[%clk 0:02:58]} b6B {[%clk 0:02:55]} 2. c3W {[%clk 0:00:42.3]} *
`
	for _, late := range []bool{false, true} {
		h := feed(late)
		var b bytes.Buffer
		if err := h.WriteRecord(&b, "b1"); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("late %v:\n%s\nwant:\n%s", late, b.String(), want)
		}
		// A flag: the Termination PGN writes for it.
		h.Event("b1", protocol.Event{Type: protocol.EventGameOver, Game: "20260101-000000-b1", Result: "1-0", Detail: string(game.ReasonTime), Time: time.Now()})
		b.Reset()
		h.WriteRecord(&b, "b1")
		if !strings.Contains(b.String(), "[Result \"1-0\"]\n[Variant \"st3d\"]\n[Board \"4\"]\n[Termination \"time forfeit\"]\n") || !strings.HasSuffix(b.String(), "} 1-0\n") {
			t.Errorf("late %v, flag:\n%s", late, b.String())
		}
	}
}
