package opponent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// wire is v as it arrives from the broker: written and read back.
func wire[T any](t *testing.T, v *T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// recTable records the commands a Remote sends; refuse, if set, says which
// it refuses (recorded all the same).
type recTable struct {
	mu     sync.Mutex
	cmds   []table.Command
	refuse func(table.Command) error
}

func (d *recTable) Do(_ context.Context, c table.Command) (table.Reply, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cmds = append(d.cmds, c)
	if d.refuse != nil {
		if err := d.refuse(c); err != nil {
			return table.Reply{}, err
		}
	}
	return table.Reply{}, nil
}

// take returns the commands sent since the last take, peer states left out.
func (d *recTable) take() (cmds []table.Command, peer *table.PeerState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.cmds {
		if p, ok := c.(table.Peer); ok {
			peer = p.State
			continue
		}
		cmds = append(cmds, c)
	}
	d.cmds = nil
	return cmds, peer
}

// remoteRig is a Remote of set "enterprise" (White) against "klingon"
// (Black) with no broker, fed messages by hand, on a simulated clock.
type remoteRig struct {
	t   *testing.T
	r   *Remote
	tb  *recTable
	now time.Time
}

func newRemoteRig(t *testing.T) *remoteRig {
	rig := &remoteRig{t: t, tb: &recTable{}, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	r, err := NewRemote(game.Opponent{Side: rules.Black, Set: "klingon"}, nil, rig.tb, RemoteOpts{Broker: "tcp://127.0.0.1:1",
		Prefix: "tridboard", Local: "enterprise", Log: slog.New(slog.NewTextHandler(io.Discard, nil)), RemoteSettings: RemoteSettings{Grace: 10 * time.Second},
		Now: func() time.Time { return rig.now }, Tick: make(chan time.Time)})
	if err != nil {
		t.Fatal(err)
	}
	// The test runs reconcile itself, on its own goroutine: the loop stops.
	close(r.stop)
	<-r.done
	t.Cleanup(r.f.Close)
	rig.r = r
	return rig
}

// ours is this set's game G-A after the moves, in sync, with a 300 s clock
// running for the side to move.
func (rig *remoteRig) ours(moves ...string) *table.Snapshot {
	s := snapAfter(rig.t, moves...)
	s.Game, s.Status.State = "G-A", recognize.InSync
	s.Clock = &clock.Snapshot{Control: "300", WhiteMS: 300000, BlackMS: 300000, Running: s.Position.Turn().String(),
		At: clock.Stamp{Time: rig.now}}
	return s
}

func snapAfter(t *testing.T, moves ...string) *table.Snapshot {
	pos := st3d.Start()
	s := &table.Snapshot{System: st3d.System, Start: pos, Result: rules.NoResult}
	for i, long := range moves {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatal(err)
		}
		s.Moves = append(s.Moves, game.Move{Seq: i + 1, Move: long})
		pos = pos.Play(m)
	}
	s.Position, s.Expected = pos, pos
	return s
}

// step hands the Remote this set's snapshot and the other set's state and
// record (nil: unchanged) and waits for it to act on them.
func (rig *remoteRig) step(ours *table.Snapshot, theirs *protocol.State, rec *protocol.RemoteRecord, online *bool) ([]table.Command, *table.PeerState) {
	rig.t.Helper()
	if theirs != nil {
		rig.r.onState("klingon", wire(rig.t, theirs))
	}
	if rec != nil {
		rig.r.onRecord("klingon", wire(rig.t, rec))
	}
	if online != nil {
		rig.r.onAvailability("klingon", *online)
	}
	rig.r.mu.Lock()
	rig.r.ours = ours
	rig.r.mu.Unlock()
	rig.r.reconcile()
	return rig.tb.take()
}

var yes, no = true, false

func theirState(game string, moves ...string) *protocol.State {
	return &protocol.State{Game: game, Variant: "st3d", Moves: moves, Result: string(rules.NoResult)}
}

// A remote game has one identity (issue 24): a set pairs only with a game
// of the other set that names it and is paired with nothing or with this
// game; the other set's previous game (paired with this set's previous
// one) is never played, and this set says the other is in another game.
func TestRemotePairing(t *testing.T) {
	rig := newRemoteRig(t)
	old := theirState("G-B1", "b2W-b4N")
	oldRec := &protocol.RemoteRecord{Game: "G-B1", Peer: "enterprise", Side: "black", PeerGame: "G-A0", DrawOffer: -1, DrawDeclined: -1}
	cmds, peer := rig.step(rig.ours(), old, oldRec, &yes)
	if len(cmds) != 0 {
		t.Errorf("the other set's previous game made the commands %v", cmds)
	}
	if peer == nil || peer.Paired || !strings.Contains(peer.Detail, "set klingon is in another game (G-B1, paired with game G-A0)") {
		t.Errorf("peer %+v: want unpaired, in another game", peer)
	}
	// Another opponent, or the wrong side: not this game either.
	cmds, peer = rig.step(rig.ours(), theirState("G-B2"), &protocol.RemoteRecord{Game: "G-B2", Peer: "bird-of-prey", Side: "black"}, nil)
	if len(cmds) != 0 || peer == nil || !strings.Contains(peer.Detail, "against bird-of-prey") {
		t.Errorf("a game against another set: %v, %+v", cmds, peer)
	}
	// The other set starts its game against this one: paired.
	rec := &protocol.RemoteRecord{Game: "G-B3", Peer: "enterprise", Side: "black", DrawOffer: -1, DrawDeclined: -1}
	_, peer = rig.step(rig.ours(), theirState("G-B3"), rec, nil)
	if peer == nil || !peer.Paired || rig.r.peerGame != "G-B3" {
		t.Errorf("peer %+v, paired with %q: want G-B3", peer, rig.r.peerGame)
	}
	// Its moves are played here, with the game's id and ply; a state of
	// another game is not.
	cmds, _ = rig.step(rig.ours("b2W-b3W"), theirState("G-B3", "b2W-b3W", "b7B-b6B"), nil, nil)
	if len(cmds) != 1 || cmds[0].(table.PlayMove) != (table.PlayMove{Move: "b7B-b6B", Game: "G-A", Ply: 2}) {
		t.Errorf("commands %#v: want b7B-b6B as ply 2 of G-A", cmds)
	}
	cmds, peer = rig.step(rig.ours("b2W-b3W"), theirState("G-B4", "c2W-c3W", "c7B-c6B"), nil, nil)
	if len(cmds) != 0 || peer == nil || !strings.Contains(peer.Detail, "left this game for another (G-B4)") {
		t.Errorf("another game of the other set: %v, %+v", cmds, peer)
	}
}

// pairedRig is a rig paired with G-B.
func pairedRig(t *testing.T) *remoteRig {
	rig := newRemoteRig(t)
	rec := &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: -1}
	rig.step(rig.ours(), theirState("G-B"), rec, &yes)
	if rig.r.peerGame != "G-B" {
		t.Fatalf("not paired: %q", rig.r.peerGame)
	}
	return rig
}

// Results reach the other set and are recorded there the same (issue 24):
// a resignation, a draw by agreement (accepting this side's offer), a flag,
// a claim.
func TestRemoteResults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		result    rules.Result
		reason    game.Reason
		offer     bool // this side's draw offer stands here
		want      []table.Command
		turnBlack bool
	}{
		{"resignation", rules.WhiteWins, game.ReasonResignation, false, []table.Command{table.Resign{Side: rules.Black}}, false},
		{"agreement", rules.Draw, game.ReasonAgreement, true, []table.Command{table.Draw{Side: rules.Black, Action: table.DrawAccept}}, false},
		// Issue 34: a result must follow from what was recorded here: an
		// agreement needs this side's offer standing, a resignation is of
		// the other set's players, a flag is of its own side and shows on
		// its clock.
		{"agreement without the offer here", rules.Draw, game.ReasonAgreement, false, []table.Command{
			table.Alert{Detail: "set klingon's result 1/2-1/2 (agreement) is refused: no draw offer of white stands here to be accepted"}}, false},
		{"flag", rules.WhiteWins, game.ReasonTime, false, []table.Command{table.PeerFlag{Side: rules.Black}}, false},
		{"resignation of this set's players", rules.BlackWins, game.ReasonResignation, false, []table.Command{
			table.Alert{Detail: "set klingon's result 0-1 (resignation) is refused: a resignation there can only be of its own players (black)"}}, false},
		{"flag of this set's side", rules.BlackWins, game.ReasonTime, false, []table.Command{
			table.Alert{Detail: "set klingon's result 0-1 (time) is refused: only black's flag is that set's to declare"}}, false},
		{"claim", rules.Draw, game.ReasonThreefold, false, []table.Command{table.Draw{Side: rules.Black, Action: table.DrawClaim}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rig := pairedRig(t)
			ours := rig.ours("b2W-b3W")
			if tc.offer {
				ours.HasDrawOffer, ours.DrawOffer = true, rules.White
			}
			theirs := theirState("G-B", "b2W-b3W")
			theirs.Result, theirs.Reason, theirs.Turn = string(tc.result), string(tc.reason), rules.Black
			if tc.reason == game.ReasonTime {
				theirs.Clock = &clock.Snapshot{Control: "300", WhiteMS: 300000, Stopped: true, Flag: "black"}
				if tc.result == rules.BlackWins {
					theirs.Clock.WhiteMS, theirs.Clock.BlackMS, theirs.Clock.Flag = 0, 1000, "white"
				}
			}
			cmds, _ := rig.step(ours, theirs, nil, nil)
			for i := range cmds {
				if f, ok := cmds[i].(table.PeerFlag); ok {
					f.At = time.Time{}
					cmds[i] = f
				}
			}
			if len(cmds) != len(tc.want) {
				t.Fatalf("commands %#v, want %#v", cmds, tc.want)
			}
			for i := range cmds {
				if cmds[i] != tc.want[i] {
					t.Errorf("command %d %#v, want %#v", i, cmds[i], tc.want[i])
				}
			}
		})
	}
}

// Draw offers travel both ways and a decline here takes the other side's
// offer back there (issue 24).
func TestRemoteDrawOffers(t *testing.T) {
	rig := pairedRig(t)
	theirs := theirState("G-B", "b2W-b3W")
	// Black's offer at ply 1 is played here once.
	rec := &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: 1, DrawDeclined: -1}
	cmds, _ := rig.step(rig.ours("b2W-b3W"), theirs, rec, nil)
	if len(cmds) != 1 || cmds[0] != (table.Draw{Side: rules.Black, Action: table.DrawOffer}) {
		t.Fatalf("commands %#v: want Black's offer", cmds)
	}
	standing := rig.ours("b2W-b3W")
	standing.HasDrawOffer, standing.DrawOffer = true, rules.Black
	if cmds, _ := rig.step(standing, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v with the offer standing", cmds)
	}
	// White declines here: the record says so; the offer is not played again.
	if cmds, _ := rig.step(rig.ours("b2W-b3W"), nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v after the decline", cmds)
	}
	if rec := rig.r.record(rig.ours("b2W-b3W")); rec.DrawDeclined != 1 {
		t.Errorf("record %+v: want the decline at ply 1", rec)
	}
	// White's own offer goes in the record; Black's decline there is
	// played here.
	mine := rig.ours("b2W-b3W", "b7B-b6B")
	mine.HasDrawOffer, mine.DrawOffer = true, rules.White
	theirs = theirState("G-B", "b2W-b3W", "b7B-b6B")
	rig.step(mine, theirs, nil, nil)
	if rec := rig.r.record(mine); rec.DrawOffer != 2 {
		t.Errorf("record %+v: want this side's offer at ply 2", rec)
	}
	rec = &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: 2}
	cmds, _ = rig.step(mine, nil, rec, nil)
	if len(cmds) != 1 || cmds[0] != (table.Draw{Side: rules.Black, Action: table.DrawDecline}) {
		t.Errorf("commands %#v: want Black's decline", cmds)
	}
}

// The set of the side that moved is authoritative for its clock: its
// reading right after the move goes with the move (issue 24).
func TestRemoteMoveCarriesTheClock(t *testing.T) {
	rig := pairedRig(t)
	theirs := theirState("G-B", "b2W-b3W", "b7B-b6B")
	theirs.Clock = &clock.Snapshot{Control: "300", WhiteMS: 291234, BlackMS: 287001, Running: "white"}
	ours := rig.ours("b2W-b3W")
	ours.Clock.WhiteMS = 291234 // White's time stood since White's move
	cmds, _ := rig.step(ours, theirs, nil, nil)
	if len(cmds) != 1 {
		t.Fatalf("commands %#v", cmds)
	}
	if r := cmds[0].(table.PlayMove).Reading; r == nil || r.WhiteMS != 291234 || r.BlackMS != 287001 {
		t.Errorf("reading %+v: want the other set's 291234 and 287001 ms", r)
	}
	// Without a clock here, no reading.
	ours = rig.ours("b2W-b3W")
	ours.Clock = nil
	cmds, _ = rig.step(ours, nil, nil, nil)
	if len(cmds) != 1 || cmds[0].(table.PlayMove).Reading != nil {
		t.Errorf("commands %#v: want b7B-b6B without a reading", cmds)
	}
}

// The other set's disconnect is shown at once; its side's clock is paused
// after the grace period (simulated time) when it is its side to move, and
// resumed when the set is back (issue 24).
func TestRemoteDisconnectPausesAfterGrace(t *testing.T) {
	rig := pairedRig(t)
	ours := rig.ours("b2W-b3W") // Black, the other set's side, to move
	_, peer := rig.step(ours, nil, nil, &no)
	if peer == nil || peer.Online || peer.Side != rules.Black || !strings.Contains(peer.Detail, "set klingon is offline since 12:00:00") {
		t.Fatalf("peer %+v: want offline", peer)
	}
	rig.now = rig.now.Add(9 * time.Second)
	if cmds, _ := rig.step(ours, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v within the grace period", cmds)
	}
	rig.now = rig.now.Add(time.Second)
	cmds, peer := rig.step(ours, nil, nil, nil)
	if len(cmds) != 1 || cmds[0] != (table.AdjustClock{Action: table.ClockPause}) {
		t.Fatalf("commands %#v after the grace period: want the pause", cmds)
	}
	if peer == nil || !strings.HasSuffix(peer.Detail, "; black's clock paused") {
		t.Errorf("peer %+v", peer)
	}
	paused := rig.ours("b2W-b3W")
	paused.Clock.Paused = true
	cmds, peer = rig.step(paused, nil, nil, &yes)
	if len(cmds) != 1 || cmds[0] != (table.AdjustClock{Action: table.ClockResume}) || peer == nil || !peer.Online {
		t.Errorf("back online: commands %#v, peer %+v: want the resume", cmds, peer)
	}
	// With this set's own side to move, its clock runs on.
	rig.step(rig.ours(), nil, nil, &no)
	rig.now = rig.now.Add(time.Minute)
	if cmds, _ := rig.step(rig.ours(), nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v with this set's side to move", cmds)
	}
}

// Take-back requests travel (issue 24): the other side's request is
// played here once; its answer to this side's request is carried out here;
// after accepting one here, the moves taken back are not played again from
// the other set's state before it has taken them back too.
func TestRemoteTakeBackRequests(t *testing.T) {
	rig := pairedRig(t)
	theirs := theirState("G-B", "b2W-b3W", "b7B-b6B")
	rec := &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: -1,
		TakeBack: &protocol.RemoteTakeBack{Plies: 1, At: 2, ID: 42}}
	ours := rig.ours("b2W-b3W", "b7B-b6B")
	cmds, _ := rig.step(ours, theirs, rec, nil)
	want := table.PeerTakeBack{Request: &table.TakeBackRequest{Plies: 1, At: 2, ID: 42}}
	if len(cmds) != 1 || *cmds[0].(table.PeerTakeBack).Request != *want.Request {
		t.Fatalf("commands %#v: want the request", cmds)
	}
	if cmds, _ := rig.step(ours, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("the request played twice: %#v", cmds)
	}
	// Accepted here: the move is gone here, still there; not replayed.
	back := rig.ours("b2W-b3W")
	back.TakeBackAnswer = &table.TakeBackAnswer{At: 2, ID: 42, Accept: true}
	if cmds, _ := rig.step(back, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v before the other set took the move back", cmds)
	}
	if a := rig.r.record(back).TakeBackAnswer; a == nil || *a != (protocol.RemoteTakeBackAnswer{At: 2, ID: 42, Accept: true}) {
		t.Errorf("record's answer %+v", a)
	}
	// Taken back there, then Black plays another move: played here.
	rig.step(back, theirState("G-B", "b2W-b3W"), nil, nil)
	cmds, _ = rig.step(back, theirState("G-B", "b2W-b3W", "c7B-c6B"), nil, nil)
	if len(cmds) != 1 || cmds[0].(table.PlayMove).Move != "c7B-c6B" {
		t.Errorf("commands %#v: want c7B-c6B", cmds)
	}
	// This side's own request, answered there: carried out here.
	mine := rig.ours("b2W-b3W", "c7B-c6B")
	mine.TakeBack = &table.TakeBackRequest{Plies: 2, At: 2, ID: 99}
	rec = &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: -1,
		TakeBackAnswer: &protocol.RemoteTakeBackAnswer{At: 2, ID: 99}}
	cmds, _ = rig.step(mine, theirState("G-B", "b2W-b3W", "c7B-c6B"), rec, nil)
	if len(cmds) != 1 || *cmds[0].(table.PeerTakeBack).Answer != (table.TakeBackAnswer{At: 2, ID: 99}) {
		t.Errorf("commands %#v: want the refusal carried out", cmds)
	}
}

// A set restarted in the game has its clock paused; it runs again once the
// other set is there, and the set keeps asking until its table has done it
// (a resume refused, as by a table busy with the restart, is asked again).
func TestRemoteRestartedSetResumesItsClock(t *testing.T) {
	rig := pairedRig(t)
	paused := rig.ours("b2W-b3W")
	paused.Clock.Paused = true
	rig.r.Handle(table.Event{Kind: table.ClockChanged, Detail: "paused: the game was resumed after a restart", Snap: paused})
	resume := table.AdjustClock{Action: table.ClockResume}
	rig.tb.mu.Lock()
	rig.tb.refuse = func(c table.Command) error {
		if c == resume {
			return errors.New("table busy")
		}
		return nil
	}
	rig.tb.mu.Unlock()
	if cmds, _ := rig.step(paused, nil, nil, &yes); len(cmds) != 1 || cmds[0] != resume {
		t.Fatalf("commands %#v after the restart, the other set here: want the resume", cmds)
	}
	rig.tb.mu.Lock()
	rig.tb.refuse = nil
	rig.tb.mu.Unlock()
	if cmds, _ := rig.step(paused, nil, nil, nil); len(cmds) != 1 || cmds[0] != resume {
		t.Fatalf("commands %#v after a refused resume: want it asked again", cmds)
	}
	running := rig.ours("b2W-b3W")
	if cmds, _ := rig.step(running, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v once the clock runs", cmds)
	}
	// Paused later by the players (not a restart): the set leaves it so.
	if cmds, _ := rig.step(paused, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("commands %#v for a pause that is not a restart's", cmds)
	}
}

// Two sets that hold different games (issue 33) say so for as long as the
// games differ, not in one passing alert: the peer state is not paired
// and names what differs, reconcile after reconcile. Once this set is back
// at the last position both share, the other set's move is played here
// and the games are paired again.
func TestRemoteDesyncLasts(t *testing.T) {
	rig := pairedRig(t)
	ours := rig.ours("b2W-b3W", "b7B-b6B")
	theirs := theirState("G-B", "b2W-b3W", "c7B-c6B")
	want := "desync at move 2: b7B-b6B here, c7B-c6B on the other set"
	cmds, peer := rig.step(ours, theirs, nil, nil)
	if peer == nil || peer.Paired || peer.Desync != want || peer.Detail != want {
		t.Fatalf("peer %+v, want not paired, desync %q", peer, want)
	}
	if len(cmds) != 1 || cmds[0] != (table.Alert{Detail: want}) {
		t.Errorf("commands %#v, want one alert", cmds)
	}
	for i := 0; i < 3; i++ {
		cmds, peer = rig.step(ours, nil, nil, nil)
		if len(cmds) != 0 || peer != nil {
			t.Fatalf("reconcile %d: commands %#v, peer %+v: the desync must stand unchanged", i, cmds, peer)
		}
		if rig.r.shown.Paired || rig.r.shown.Desync != want {
			t.Fatalf("reconcile %d: shown %+v", i, rig.r.shown)
		}
	}
	// Back at the last position both games share: the other set's move
	// comes here, and the games are paired again.
	cmds, peer = rig.step(rig.ours("b2W-b3W"), nil, nil, nil)
	if peer == nil || !peer.Paired || peer.Desync != "" || len(cmds) == 0 {
		t.Fatalf("peer %+v, commands %#v: want paired again", peer, cmds)
	}
	if pm, ok := cmds[0].(table.PlayMove); len(cmds) != 1 || !ok || pm.Move != "c7B-c6B" || pm.Game != "G-A" || pm.Ply != 2 {
		t.Errorf("commands %#v, want the other set's move", cmds)
	}
}

// Issue 34: the other set's clock after its move is taken only as far as
// the time control allows; a forged one is refused (the move is played
// with this set's own clock, the refusal shown and logged).
func TestRemoteClockAllowed(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	for _, tc := range []struct {
		name, control  string
		white, black   int64 // the other set's reading after Black's move
		blackBefore    *int64
		wantRefusedFor string // "" taken
	}{
		{"as the clock ran", "300", 291234, 287001, nil, ""},
		{"black gained time", "300", 291234, 9_999_000, nil, "black's time"},
		{"white's time taken", "300", 1000, 287001, nil, "white's time 1s there"},
		{"an increment's worth", "300+2", 291234, 301_500, nil, ""},
		{"more than an increment", "300+2", 291234, 305_000, nil, "a move gives at most 2s"},
		{"more than before its last move", "300", 291234, 250_000, i64(240_000), "it had 4m0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours := snapAfter(t, "b2W-b3W", "b7B-b6B", "c2W-c3W")
			ours.Moves[1].ClkMS = tc.blackBefore
			ours.Clock = &clock.Snapshot{Control: tc.control, WhiteMS: 291234, BlackMS: 280000, Running: "black"}
			err := ClockAllowed(ours, &clock.Snapshot{Control: tc.control, WhiteMS: tc.white, BlackMS: tc.black}, rules.Black)
			switch {
			case tc.wantRefusedFor == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.wantRefusedFor != "" && (err == nil || !strings.Contains(err.Error(), tc.wantRefusedFor)):
				t.Errorf("%v, want a refusal about %q", err, tc.wantRefusedFor)
			}
		})
	}
}

// desynced is pairedRig with the games split at move 2 (b7B-b6B here,
// c7B-c6B there), the desync shown.
func desynced(t *testing.T) (*remoteRig, *table.Snapshot) {
	t.Helper()
	rig := pairedRig(t)
	ours := rig.ours("b2W-b3W", "b7B-b6B")
	if _, peer := rig.step(ours, theirState("G-B", "b2W-b3W", "c7B-c6B"), nil, nil); peer == nil || peer.Desync == "" {
		t.Fatalf("peer %+v, want the desync", peer)
	}
	return rig, ours
}

// Issue 33: this set's players accept the other set's record (the table's
// Resolve): the table is given it from the last common move, with the
// other set's clock, once.
func TestRemoteResolveAccept(t *testing.T) {
	rig, ours := desynced(t)
	theirs := theirState("G-B", "b2W-b3W", "c7B-c6B")
	theirs.Clock = &clock.Snapshot{Control: "300", WhiteMS: 291000, BlackMS: 288000, Running: "white"}
	ours.Resolve = &table.Resolution{Action: table.ResolveAccept, ID: 5}
	cmds, _ := rig.step(ours, theirs, nil, nil)
	want := table.AdoptRecord{Game: "G-A", Keep: 1, Moves: []string{"c7B-c6B"}, Reading: &clock.Reading{WhiteMS: 291000, BlackMS: 288000}}
	if len(cmds) != 1 {
		t.Fatalf("commands %#v, want the record", cmds)
	}
	got, ok := cmds[0].(table.AdoptRecord)
	if !ok || got.Game != want.Game || got.Keep != want.Keep || strings.Join(got.Moves, " ") != "c7B-c6B" || got.Reading == nil || *got.Reading != *want.Reading {
		t.Fatalf("command %#v, want %#v", cmds[0], want)
	}
	if cmds, _ := rig.step(ours, nil, nil, nil); len(cmds) != 0 {
		t.Errorf("the resolution carried out twice: %#v", cmds)
	}
	// The record taken: the games agree, paired again.
	if cmds, peer := rig.step(rig.ours("b2W-b3W", "c7B-c6B"), nil, nil, nil); len(cmds) != 0 || peer == nil || !peer.Paired || peer.Desync != "" {
		t.Errorf("after the record: commands %#v, peer %+v", cmds, peer)
	}
}

// Issue 33: this set's players restore the last common position: taken
// back here, asked of the other set in the record; the other set's moves
// beyond it are not played here meanwhile. Once the other set says it
// restored it, the games pair again.
func TestRemoteResolveRestore(t *testing.T) {
	rig, ours := desynced(t)
	ours.Resolve = &table.Resolution{Action: table.ResolveRestore, ID: 9}
	cmds, _ := rig.step(ours, nil, nil, nil)
	if len(cmds) != 1 || cmds[0] != (table.PeerRestore{Game: "G-A", Keep: 1, By: "asked on this set"}) {
		t.Fatalf("commands %#v, want the restore here", cmds)
	}
	back := rig.ours("b2W-b3W")
	if rs := rig.r.record(back).Restore; rs == nil || *rs != (protocol.RemoteRestore{Keep: 1, ID: 9}) {
		t.Fatalf("record's restore %+v", rs)
	}
	// Restored here, not there yet: its c7B-c6B is not played here.
	rec := &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: -1}
	if cmds, _ := rig.step(back, nil, rec, nil); len(cmds) != 0 {
		t.Fatalf("commands %#v while the other set has yet to restore", cmds)
	}
	done := *rec
	done.Restored = 9
	if cmds, _ := rig.step(back, nil, &done, nil); len(cmds) != 0 {
		t.Fatalf("commands %#v: restored there, its state from before played here", cmds)
	}
	cmds, peer := rig.step(back, theirState("G-B", "b2W-b3W"), nil, nil)
	if len(cmds) != 0 || peer == nil || !peer.Paired || peer.Desync != "" || rig.r.record(back).Restore != nil {
		t.Errorf("restored there: commands %#v, peer %+v, record %+v", cmds, peer, rig.r.record(back))
	}
}

// Issue 33: the other set's players restored the last common position:
// it is restored here too, once, and the record says so.
func TestRemoteRestoreAskedByTheOtherSet(t *testing.T) {
	rig, ours := desynced(t)
	rec := &protocol.RemoteRecord{Game: "G-B", Peer: "enterprise", Side: "black", PeerGame: "G-A", DrawOffer: -1, DrawDeclined: -1,
		Restore: &protocol.RemoteRestore{Keep: 1, ID: 12}}
	// The record comes before the state that follows the restore there.
	cmds, _ := rig.step(ours, nil, rec, nil)
	if len(cmds) != 1 || cmds[0] != (table.PeerRestore{Game: "G-A", Keep: 1, By: "asked by set klingon"}) {
		t.Fatalf("commands %#v, want the restore", cmds)
	}
	back := rig.ours("b2W-b3W")
	if got := rig.r.record(back).Restored; got != 12 {
		t.Errorf("record's restored %d, want 12", got)
	}
	if cmds, _ := rig.step(back, nil, nil, nil); len(cmds) != 0 {
		t.Fatalf("commands %#v: the other set's move taken back there was played here", cmds)
	}
	if cmds, peer := rig.step(back, theirState("G-B", "b2W-b3W"), nil, nil); len(cmds) != 0 || peer == nil || !peer.Paired {
		t.Errorf("after the restore: commands %#v, peer %+v", cmds, peer)
	}
}
