package table_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// A game with every kind of st3d move (double step, a pawn climbing to
// Black's board, kingside castling recognized from its lifts, captures,
// board moves, a knight's mate), played by hand on the simulated set through
// scanner, recognizer, journal and LEDs, in simulated time.
var wholeGame = strings.Fields(`
	c2W-c4W d7B-d6B c4W-c5B d8B-c6B 0-0 c6B-b4W a1W-c2W d9KL6-d8B
	a2W-a3W a9QL6-d9KL6 a1QL1-a3N b4W-a2W c5B-c6N a2W-c1W`)

func TestWholeGameInSimulatedTime(t *testing.T) {
	r := newRig(t)
	start := time.Now()
	for _, long := range wholeGame {
		r.play(long)
	}
	r.drain()
	wall := time.Since(start)
	if got := strings.Join(r.rec.moves(), " "); got != strings.Join(wholeGame, " ") {
		t.Fatalf("moves recognized:\n%s\nwant\n%s", got, strings.Join(wholeGame, " "))
	}
	snap := r.tb.Snapshot()
	for i, m := range snap.Moves {
		if m.Seq != i+1 {
			t.Errorf("move %d has seq %d", i+1, m.Seq)
		}
	}
	if snap.Result != rules.BlackWins || snap.Reason != game.ReasonCheckmate {
		t.Errorf("result %s (%s), want 0-1 by checkmate", snap.Result, snap.Reason)
	}
	evs := r.rec.events()
	if evs[0].Kind != table.Started {
		t.Errorf("first event %s, want started", evs[0].Kind)
	}
	last := evs[len(evs)-1]
	for _, e := range evs {
		if e.Kind == table.GameOver {
			last = e
		}
	}
	if last.Kind != table.GameOver || last.Result != rules.BlackWins {
		t.Errorf("no game over event for 0-1: %+v", last)
	}
	// The LEDs show the mated king.
	v := r.leds.view()
	_, king := snap.Position.InCheck()
	if v.GameOver != rules.CellSetOf(king) || v.Draw {
		t.Errorf("LEDs at the end: game over %v draw %v, want the mated king %s",
			v.GameOver.Names(st3d.CellNames()), v.Draw, st3d.CellNames()[king])
	}
	t.Logf("%d moves in %v of wall time", len(wholeGame), wall)
}

func TestTakeBackOnTheSet(t *testing.T) {
	r := newRig(t)
	r.play("b2W-b3W")
	r.play("b7B-b6B")
	// Putting b6B back on b7B takes Black's move back.
	r.act("lift b6B", "wait 100", "place b7B")
	r.run(time.Second)
	r.drain()
	if got := r.rec.kinds(); got != "started, mismatch, moved b2W-b3W, moved b7B-b6B, took back b7B-b6B" {
		t.Errorf("events: %s", got)
	}
	if n := len(r.tb.Snapshot().Moves); n != 1 {
		t.Errorf("%d moves after the take-back, want 1", n)
	}
	// The next move gets the next seq: 3.
	r.play("c7B-c6B")
	r.drain()
	if m := r.tb.Snapshot().Moves; len(m) != 2 || m[1].Seq != 3 {
		t.Errorf("moves after the take-back: %+v", m)
	}
}

func TestCommands(t *testing.T) {
	r := newRig(t)
	r.play("b2W-b3W")
	r.drain()
	// A take-back by command: the set must then show the position before.
	rep, err := r.tb.Exec(table.TakeBack{})
	if err != nil || rep.Move == nil || rep.Move.Move != "b2W-b3W" {
		t.Fatalf("TakeBack: %+v, %v", rep, err)
	}
	r.run(time.Second)
	if st := r.tb.Snapshot().Status; st.State != recognize.Mismatch || st.Fix.Names(st3d.CellNames())[0] != "b2W" {
		t.Errorf("after a take-back by command the board is %s, fix %v", st.State, st.Fix.Names(st3d.CellNames()))
	}
	r.act("lift b3W", "place b2W")
	r.run(time.Second)
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Errorf("the board is %s once the set shows the position", st)
	}
	// Refused commands change nothing.
	for _, tc := range []struct {
		c    table.Command
		want string
	}{
		{table.Promote{Piece: 'Q'}, "no promotion is waiting"},
		{table.TakeBack{}, "no move"},
		{table.Draw{Side: rules.White, Action: table.DrawClaim}, "claim"},
		{table.NewGame{Position: "nonsense"}, "position"},
		{table.NewGame{System: millennium.System}, "cannot sense"},
		{table.PlayMove{Move: "Qz9"}, ""},
	} {
		before := r.tb.Snapshot()
		if _, err := r.tb.Exec(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: error %v, want one with %q", tc.c.Name(), tc.c, err, tc.want)
		}
		if after := r.tb.Snapshot(); after.Game != before.Game || len(after.Moves) != len(before.Moves) ||
			after.System != before.System {
			t.Errorf("%s %+v changed the game", tc.c.Name(), tc.c)
		}
	}
	if _, err := r.tb.Exec(table.NewGame{System: millennium.System}); !errors.Is(err, table.ErrCannotSense) {
		t.Errorf("a Millennium game on the ST3D set: %v, want ErrCannotSense", err)
	}
	// Draw offered and accepted: both kings show the draw.
	if _, err := r.tb.Exec(table.Draw{Side: rules.White, Action: table.DrawOffer}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tb.Exec(table.Draw{Side: rules.Black, Action: table.DrawAccept}); err != nil {
		t.Fatal(err)
	}
	r.drain()
	if v := r.leds.view(); !v.Draw || v.GameOver != kings(r, rules.White).Union(kings(r, rules.Black)) {
		t.Errorf("LEDs after an agreed draw: game over %v, draw %v", v.GameOver.Names(st3d.CellNames()), v.Draw)
	}
	// A new game with players.
	rep, err = r.tb.Exec(table.NewGame{Tags: game.Tags{White: "Kirk", Black: "Spock"}})
	if err != nil {
		t.Fatal(err)
	}
	snap := r.tb.Snapshot()
	if snap.Game != rep.Game || snap.Tags.White != "Kirk" || snap.Tags.Site != "rig" || len(snap.Moves) != 0 {
		t.Errorf("new game: %+v", snap)
	}
	r.drain()
	if got := r.rec.kinds(); !strings.HasSuffix(got, "took back b2W-b3W, mismatch, draw offered, game over, new game") {
		t.Errorf("events: %s", got)
	}
}

func TestResignationShowsTheLoser(t *testing.T) {
	r := newRig(t)
	// Black resigns with White to move: Black's king shows the end.
	if _, err := r.tb.Exec(table.Resign{Side: rules.Black}); err != nil {
		t.Fatal(err)
	}
	r.drain()
	v := r.leds.view()
	if v.GameOver != kings(r, rules.Black) || v.Draw {
		t.Errorf("LEDs after Black resigned: %v draw %v, want Black's king", v.GameOver.Names(st3d.CellNames()), v.Draw)
	}
	// The game is over: a move on the set is not accepted, and says why.
	r.play("b2W-b3W")
	r.drain()
	var ill *table.Event
	for _, e := range r.rec.events() {
		if e.Kind == table.Illegal {
			ill = &e
		}
	}
	if ill == nil || !strings.Contains(ill.Detail, "over") {
		t.Fatalf("no illegal event for a move after the end: %s", r.rec.kinds())
	}
	r.run(time.Second)
	if st := r.tb.Snapshot().Status; st.State != recognize.Mismatch || !strings.Contains(st.Reason, "did not accept") {
		t.Errorf("board %s %q after a refused move", st.State, st.Instruction)
	}
}

func TestRemoteMoveShownUntilMade(t *testing.T) {
	r := newRig(t)
	rep, err := r.tb.Exec(table.PlayMove{Move: "Nc3N"})
	if err != nil || rep.Move.Move != "d1W-c3N" || rep.Move.Seq != 1 {
		t.Fatalf("PlayMove: %+v %v", rep, err)
	}
	r.run(500 * time.Millisecond)
	r.drain()
	v := r.leds.view()
	names := st3d.CellNames()
	if from, to := v.RemoteFrom.Names(names), v.RemoteTo.Names(names); strings.Join(from, " ") != "d1W" ||
		strings.Join(to, " ") != "c3N" || !v.Fix.Empty() {
		t.Errorf("LEDs for the remote move: from %v to %v fix %v", from, to, v.Fix.Names(names))
	}
	if _, err := r.tb.Exec(table.PlayMove{Move: "c7B-c6B"}); !errors.Is(err, table.ErrNotInSync) {
		t.Errorf("a second remote move before the set shows the first: %v", err)
	}
	r.act("lift d1W", "wait 100", "place c3N")
	r.run(time.Second)
	r.drain()
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Fatalf("board %s after making the remote move", st)
	}
	if got := r.rec.moves(); len(got) != 1 {
		t.Errorf("moves %v: making the remote move on the set is not a move of its own", got)
	}
	if v := r.leds.view(); !v.RemoteFrom.Empty() || !v.RemoteTo.Empty() {
		t.Error("the remote move still shows once made")
	}
}

// A move made elsewhere that the switches cannot see (White's castling
// swaps king and rook on their attack board: the same cells stay occupied)
// leaves the set in sync at once; its cells stay lit until the players
// have made it (they lift the pieces and put them back), not one reading.
func TestRemoteMoveTheSetCannotSee(t *testing.T) {
	r := newRig(t)
	for _, long := range []string{"c2W-c4W", "d7B-d6B", "c4W-c5B", "d8B-c6B"} {
		r.play(long)
	}
	r.drain()
	rep, err := r.tb.Exec(table.PlayMove{Move: "0-0"})
	if err != nil || rep.Move.Seq != 5 {
		t.Fatalf("PlayMove 0-0: %+v %v", rep, err)
	}
	r.run(2 * time.Second)
	r.drain()
	names := st3d.CellNames()
	snap := r.tb.Snapshot()
	v := r.leds.view()
	if snap.Status.State != recognize.InSync {
		t.Fatalf("board %s after a castling made elsewhere: the switches read the same cells", snap.Status.State)
	}
	if from, to := v.RemoteFrom.Names(names), v.RemoteTo.Names(names); strings.Join(from, " ") != "d0KL1" ||
		strings.Join(to, " ") != "e0KL1" {
		t.Fatalf("LEDs for the castling made elsewhere: from %v to %v, want d0KL1 to e0KL1", from, to)
	}
	if snap.RemoteTo.Empty() {
		t.Fatal("the state no longer shows the castling to make")
	}
	// The players swap king and rook.
	r.act("lift d0KL1", "wait 150", "lift e0KL1", "wait 150", "place d0KL1", "wait 150", "place e0KL1")
	r.run(2 * time.Second)
	r.drain()
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Fatalf("board %s after the castling was made", st)
	}
	if got := r.rec.moves(); len(got) != 5 {
		t.Errorf("moves %v: making the castling on the set is not a move of its own", got)
	}
	if v := r.leds.view(); !v.RemoteFrom.Empty() || !v.RemoteTo.Empty() {
		t.Errorf("the castling still shows once made: from %v to %v", v.RemoteFrom.Names(names), v.RemoteTo.Names(names))
	}
}

// A castling taken back by command is as invisible to the switches: the
// set stays in sync, and the LEDs show king and rook to swap back until
// the players have done it; then the set plays on from there.
func TestTakeBackTheSetCannotSee(t *testing.T) {
	r := newRig(t)
	for _, long := range []string{"c2W-c4W", "d7B-d6B", "c4W-c5B", "d8B-c6B", "0-0"} {
		r.play(long)
	}
	r.drain()
	if got := r.rec.moves(); len(got) != 5 {
		t.Fatalf("moves %v, want the castling fifth", got)
	}
	if _, err := r.tb.Exec(table.TakeBack{}); err != nil {
		t.Fatal(err)
	}
	r.run(2 * time.Second)
	r.drain()
	names := st3d.CellNames()
	v := r.leds.view()
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Fatalf("board %s after the castling was taken back: the switches read the same cells", st)
	}
	if from, to := v.RemoteFrom.Names(names), v.RemoteTo.Names(names); strings.Join(from, " ") != "e0KL1" ||
		strings.Join(to, " ") != "d0KL1" {
		t.Fatalf("LEDs for the castling taken back: from %v to %v, want e0KL1 to d0KL1", from, to)
	}
	r.act("lift e0KL1", "wait 150", "lift d0KL1", "wait 150", "place d0KL1", "wait 150", "place e0KL1")
	r.run(2 * time.Second)
	r.drain()
	if v := r.leds.view(); !v.RemoteFrom.Empty() || !v.RemoteTo.Empty() {
		t.Errorf("the take-back still shows once made: from %v to %v", v.RemoteFrom.Names(names), v.RemoteTo.Names(names))
	}
	if got := r.rec.moves(); len(got) != 5 {
		t.Errorf("moves %v: putting king and rook back is not the castling made again", got)
	}
	r.play("b2W-b3W")
	r.drain()
	var game []string
	for _, m := range r.tb.Snapshot().Moves {
		game = append(game, m.Move)
	}
	if got := strings.Join(game, " "); got != "c2W-c4W d7B-d6B c4W-c5B d8B-c6B b2W-b3W" {
		t.Errorf("game %s", got)
	}
}

func TestMismatchNamesTheCells(t *testing.T) {
	r := newRig(t)
	r.act("place b5N") // a piece from nowhere
	r.run(3 * time.Second)
	r.drain()
	snap := r.tb.Snapshot()
	if snap.Status.State != recognize.Mismatch || strings.Join(snap.Status.Fix.Names(st3d.CellNames()), " ") != "b5N" {
		t.Fatalf("board %s fix %v", snap.Status.State, snap.Status.Fix.Names(st3d.CellNames()))
	}
	var ill *table.Event
	for _, e := range r.rec.events() {
		if e.Kind == table.Illegal {
			ill = &e
		}
	}
	if ill == nil || strings.Join(ill.Cells.Names(st3d.CellNames()), " ") != "b5N" || ill.Detail == "" {
		t.Fatalf("illegal event %+v", ill)
	}
	if v := r.leds.view(); strings.Join(v.Fix.Names(st3d.CellNames()), " ") != "b5N" {
		t.Errorf("LEDs fix %v", v.Fix.Names(st3d.CellNames()))
	}
	r.act("lift b5N")
	r.run(time.Second)
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Errorf("board %s after the piece is taken away", st)
	}
}

func TestSensorFault(t *testing.T) {
	r := newRig(t)
	exp := r.b.Wiring.Expanders[0]
	r.b.Bus.Detach(exp.Address)
	r.run(2 * time.Second)
	r.drain()
	snap := r.tb.Snapshot()
	if snap.Status.State != recognize.SensorFault || snap.Status.Fault == "" {
		t.Fatalf("board %s (%q) with expander %#x gone", snap.Status.State, snap.Status.Fault, exp.Address)
	}
	var faults []string
	for _, e := range r.rec.events() {
		if e.Kind == table.Fault {
			faults = append(faults, e.Detail)
		}
	}
	if len(faults) != 1 || !strings.Contains(faults[0], "expander") {
		t.Fatalf("fault events %q", faults)
	}
	if err := r.b.Bus.Attach(exp.Address, r.b.Expanders[0]); err != nil {
		t.Fatal(err)
	}
	r.run(5 * time.Second)
	r.drain()
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Errorf("board %s after the expander came back", st)
	}
	if h := r.tb.Health(); len(h.Expanders) != len(r.b.Wiring.Expanders) || h.Expanders[0].Failures == 0 {
		t.Errorf("health %+v", h.Expanders)
	}
	r.play("b2W-b3W")
	r.drain()
	if got := r.rec.moves(); len(got) != 1 {
		t.Errorf("moves after recovery: %v", got)
	}
}

func TestPromotionChoice(t *testing.T) {
	pos := "QL1:w,QL6:b,KL1:w,KL6:b Kb2W,kc7B,Pb7B w - - - 0 30"
	for _, tc := range []struct {
		name   string
		choose func(r *rig)
		want   string
	}{
		{"command", func(r *rig) {
			if _, err := r.tb.Exec(table.Promote{Piece: 'N'}); err != nil {
				r.t.Fatal(err)
			}
		}, "N"},
		{"button", func(r *rig) {
			if err := r.b.Set.Press("button:knight"); err != nil {
				r.t.Fatal(err)
			}
			r.run(100 * time.Millisecond)
			if err := r.b.Set.Release("button:knight"); err != nil {
				r.t.Fatal(err)
			}
		}, "N"},
		{"none", func(r *rig) { r.act("lift c7B") }, "Q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			if _, err := r.tb.Exec(table.NewGame{Position: pos}); err != nil {
				t.Fatal(err)
			}
			r.setup()
			r.run(time.Second)
			r.act("lift b7B", "wait 100", "place b8B")
			r.run(time.Second)
			if st := r.tb.Snapshot().Status; st.State != recognize.NeedsChoice || string(st.Choices) != "QRBN" {
				t.Fatalf("board %s choices %q", st.State, st.Choices)
			}
			tc.choose(r)
			r.run(time.Second)
			r.drain()
			moves := r.tb.Snapshot().Moves
			if len(moves) != 1 || !strings.HasSuffix(moves[0].Move, "="+tc.want) {
				t.Errorf("moves %+v, want a promotion to %s", moves, tc.want)
			}
		})
	}
}

// A slow disk never holds up the scan loop: while the journal is stuck,
// the set's moves are still recognized, and they take effect in order once
// the disk answers, those that waited written with one fsync.
func TestSlowJournalLosesNothing(t *testing.T) {
	var (
		mu     sync.Mutex
		stuck  = make(chan struct{})
		writes int
	)
	r := newRig(t, func(o *table.Opts) {
		table.SlowJournal(o, func() {
			mu.Lock()
			c := stuck
			writes++
			mu.Unlock()
			<-c
		})
	})
	for i, long := range []string{"c2W-c4W", "d7B-d6B", "c4W-c5B", "d8B-c6B", "0-0"} {
		r.play(long)
		// The first move's write is stuck before the others come.
		for deadline := time.Now().Add(5 * time.Second); i == 0; time.Sleep(time.Millisecond) {
			mu.Lock()
			n := writes
			mu.Unlock()
			if n == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the journal did not take the first move within 5 s")
			}
		}
	}
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 0 || snap.Status.State != recognize.InSync {
		t.Fatalf("while the disk is stuck: %d moves durable, board %s", len(snap.Moves), snap.Status.State)
	}
	if got := len(snap.Expected.String()); got == 0 || snap.Expected.String() == snap.Position.String() {
		t.Fatal("the expected position did not go on while the journal waited")
	}
	if h := r.tb.Health(); h.Journaling == 0 && len(snap.Moves) == 0 {
		// The worker holds one job; the rest wait in the queue.
		t.Logf("journal queue %d", h.Journaling)
	}
	mu.Lock()
	close(stuck)
	mu.Unlock()
	r.run(100 * time.Millisecond)
	r.drain()
	if got := strings.Join(r.rec.moves(), " "); got != "c2W-c4W d7B-d6B c4W-c5B d8B-c6B 0-0" {
		t.Errorf("moves once the disk answered: %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	// The first move's write waited; the four recognized meanwhile went
	// with one fsync.
	if writes != 2 {
		t.Errorf("%d journal writes for five moves, the disk stuck during the first: want 2", writes)
	}
}

// A sink that blocks never holds up the table or another sink; when it
// wakes up it gets the whole table again.
func TestBlockedSinkHoldsUpNothing(t *testing.T) {
	release := make(chan struct{})
	var blocked recorder
	r := newRig(t, func(o *table.Opts) {
		o.SinkQueue = 4
		o.Sinks = append(o.Sinks, table.SinkFunc(func(e table.Event) {
			<-release
			blocked.Handle(e)
		}))
	})
	for _, long := range wholeGame[:6] {
		r.play(long)
	}
	if r.tb.Drain(0) {
		t.Fatal("Drain reports a blocked sink idle")
	}
	// The other sinks' queues are as short (4): they may drop events too,
	// but never stop, and their newest snapshot has every move.
	lastMoves := func() int {
		evs := r.rec.events()
		if len(evs) == 0 {
			return 0
		}
		return len(evs[len(evs)-1].Snap.Moves)
	}
	for deadline := time.Now().Add(5 * time.Second); lastMoves() != 6; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the other sink's newest snapshot has %d moves while one sink was blocked", lastMoves())
		}
	}
	h := r.tb.Health()
	if h.Sinks[2].Dropped == 0 {
		t.Errorf("the blocked sink's queue dropped nothing: %+v", h.Sinks[2])
	}
	close(release)
	r.drain()
	evs := blocked.events()
	var started int
	for _, e := range evs {
		if e.Kind == table.Started {
			started++
			if len(e.Snap.Moves) == 6 {
				started += 100
			}
		}
	}
	if started < 101 {
		t.Errorf("the blocked sink did not get the whole table again (%d started)", started)
	}
}

// Many tables in one process: each has its own set, journal and sinks.
func TestTwoTablesInOneProcess(t *testing.T) {
	a, b := newRig(t), newRig(t)
	var wg sync.WaitGroup
	for _, x := range []struct {
		r     *rig
		moves []string
	}{{a, wholeGame[:4]}, {b, []string{"b2W-b3W", "b7B-b6B"}}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range x.moves {
				x.r.play(m)
			}
		}()
	}
	wg.Wait()
	a.drain()
	b.drain()
	if got := strings.Join(a.rec.moves(), " "); got != strings.Join(wholeGame[:4], " ") {
		t.Errorf("table a: %s", got)
	}
	if got := strings.Join(b.rec.moves(), " "); got != "b2W-b3W b7B-b6B" {
		t.Errorf("table b: %s", got)
	}
}

// The journal resumes: a new table on the same state directory continues
// the game, and the set must show its position.
func TestResume(t *testing.T) {
	r := newRig(t)
	r.play("b2W-b3W")
	r.drain()
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	r.rec = &recorder{}
	r.opts.Sinks = []table.Sink{r.rec}
	r.open()
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 1 || snap.Moves[0].Move != "b2W-b3W" {
		t.Fatalf("resumed with %+v", snap.Moves)
	}
	r.play("b7B-b6B")
	r.drain()
	if m := r.tb.Snapshot().Moves; len(m) != 2 || m[1].Seq != 2 {
		t.Errorf("after resuming: %+v", m)
	}
}

// kings is the cell of side's king in the table's expected position.
func kings(r *rig, side rules.Color) rules.CellSet {
	pos := r.tb.Snapshot().Expected
	var s rules.CellSet
	for c := range pos.System().Cells() {
		if pc, ok := pos.CellPiece(rules.Cell(c)); ok && pc == rules.PieceOf(side, rules.King) {
			s.Add(rules.Cell(c))
		}
	}
	return s
}

// take_back with plies 2 takes a learner's move and the engine's reply
// back together, both or neither (issue 24).
func TestTakeBackPlies(t *testing.T) {
	r := newRig(t)
	r.play("b2W-b3W")
	r.drain()
	if _, err := r.tb.Exec(table.TakeBack{Plies: 2}); err == nil || !strings.Contains(err.Error(), "take back 2 moves: the game has 1") {
		t.Errorf("two plies of a one-move game: %v", err)
	}
	if n := len(r.tb.Snapshot().Moves); n != 1 {
		t.Fatalf("a refused take-back left %d moves, want 1", n)
	}
	if _, err := r.tb.Exec(table.PlayMove{Move: "b7B-b6B"}); err != nil {
		t.Fatal(err)
	}
	r.act("lift b7B", "wait 100", "place b6B")
	r.run(time.Second)
	rep, err := r.tb.Exec(table.TakeBack{Plies: 2})
	if err != nil {
		t.Fatal(err)
	}
	var back []string
	for _, m := range rep.TakenBack {
		back = append(back, m.Move)
	}
	if got := strings.Join(back, " "); got != "b7B-b6B b2W-b3W" || rep.Move.Move != "b7B-b6B" {
		t.Errorf("taken back %q (reply move %s), want b7B-b6B b2W-b3W", got, rep.Move.Move)
	}
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 0 || snap.Expected.Key() != st3d.Start().Key() {
		t.Errorf("after two plies back: %d moves", len(snap.Moves))
	}
	r.drain()
	if got := r.rec.kinds(); !strings.Contains(got, "took back b7B-b6B, took back b2W-b3W") {
		t.Errorf("events %s", got)
	}
	r.act("lift b6B", "wait 100", "place b7B", "wait 200", "lift b3W", "wait 100", "place b2W")
	r.run(time.Second)
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Errorf("board %s once the set shows the start again", st)
	}
}

// A move made elsewhere is refused, changing nothing, when it belongs to
// another game or was chosen before the game moved on (issue 24: an
// engine's move from before a take-back, a remote set's from its last game).
func TestPlayMoveStale(t *testing.T) {
	r := newRig(t)
	game := r.tb.Snapshot().Game
	for _, c := range []table.PlayMove{
		{Move: "b2W-b3W", Game: "another"},
		{Move: "b2W-b3W", Ply: 2},
		{Move: "b2W-b3W", Game: game, Ply: 3},
	} {
		if _, err := r.tb.Exec(c); !errors.Is(err, table.ErrStale) {
			t.Errorf("%+v: %v, want ErrStale", c, err)
		}
		if n := len(r.tb.Snapshot().Moves); n != 0 {
			t.Fatalf("%+v played: %d moves", c, n)
		}
	}
	if _, err := r.tb.Exec(table.PlayMove{Move: "b2W-b3W", Game: game, Ply: 1}); err != nil {
		t.Errorf("the move of this game and moment: %v", err)
	}
}
