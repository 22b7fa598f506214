package protocol_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/tabletest"
)

func TestState(t *testing.T) {
	snap := tabletest.Snapshots(2)[1]
	st := protocol.StateOf(snap)
	if st.Game != "g" || st.Variant != "st3d" || len(st.Moves) != 2 || st.LastMove.Seq != 2 || st.Board.Status != protocol.BoardInSync ||
		st.Result != "*" || st.Start != "" || st.MoveNumber != 2 {
		t.Errorf("state %+v", st)
	}
}

// The state carries the record's tags (Site and Date too) and, when every
// move has one, the mover's clock after each move, so that a display that
// joins late writes the record the export writes (issue 25).
func TestStateRecordFields(t *testing.T) {
	snap := tabletest.Snapshots(3)[2]
	snap.Tags = game.Tags{White: "Kirk", Black: "Spock", Site: "hall", Date: "2026.12.03", Event: "Open", Round: "2"}
	st := protocol.StateOf(snap)
	if want := map[string]string{"White": "Kirk", "Black": "Spock", "Site": "hall", "Date": "2026.12.03", "Event": "Open", "Round": "2"}; !maps.Equal(st.Tags, want) {
		t.Errorf("tags %v, want %v", st.Tags, want)
	}
	if st.ClkMS != nil {
		t.Errorf("moves without clocks: clk_ms %v", st.ClkMS)
	}
	for i := range snap.Moves {
		ms := int64(170000 - i*1000)
		snap.Moves[i].ClkMS = &ms
	}
	if st := protocol.StateOf(snap); !slices.Equal(st.ClkMS, []int64{170000, 169000, 168000}) {
		t.Errorf("clk_ms %v", st.ClkMS)
	}
	snap.Moves[1].ClkMS = nil
	if st := protocol.StateOf(snap); st.ClkMS != nil {
		t.Errorf("a move without its clock: clk_ms %v, want none", st.ClkMS)
	}
}

// A move set down that waits for its player's clock press shows in the
// state's board as awaiting_press; any other move in progress does not.
func TestStateAwaitingPress(t *testing.T) {
	snap := tabletest.Snapshots(1)[0]
	for _, held := range []bool{false, true} {
		s := *snap
		s.Status = table.BoardStatus{State: recognize.MoveInProgress, Held: held}
		s.Status.Lifted.Add(0)
		b := protocol.StateOf(&s).Board
		if b.Status != protocol.BoardMoveInProgress || b.AwaitingPress != held {
			t.Errorf("held %v: board %+v", held, b)
		}
	}
}

// The state says how the game is played (casual when the game does not
// say) and, in a remote game whose sets hold different games, what differs
// (issue 33).
func TestStatePlayAndDesync(t *testing.T) {
	snap := tabletest.Snapshots(1)[0]
	if st := protocol.StateOf(snap); st.Play != "casual" || st.Peer != nil {
		t.Errorf("play %q, peer %+v: want casual, none", st.Play, st.Peer)
	}
	snap.Tags.Play = game.PlayTournament
	want := "desync at move 2: b7B-b6B here, c7B-c6B on the other set"
	snap.Peer = &table.PeerState{Set: "klingon", Online: true, Detail: want, Desync: want}
	st := protocol.StateOf(snap)
	if p := st.Peer; st.Play != "tournament" || p == nil || p.Paired || p.Desync != want || p.Set != "klingon" {
		t.Errorf("play %q, peer %+v", st.Play, p)
	}
}
