package event

import (
	"slices"
	"testing"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
)

// Positions one move from the end (as in the game package's tests): the
// move mates, or stalemates.
const (
	mateInOne      = "QL1:w,QL6:b,KL1:w,KL6:b Kd3W,Qa6N,Rc5B,kc5N w - - - 0 40"
	mateMove       = "c5B-b5N"
	stalemateInOne = "QL1:w,QL6:b,KL1:w,KL6:b Ka8QL6,Qd1W,ka8B w - - - 0 40"
	stalemateMove  = "d1W-d9KL6"
	// fiftyMoves: 100 half-moves without a capture or a pawn move.
	fiftyMoves = "QL1:w,QL6:b,KL1:w,KL6:b Ka8QL6,Qd1W,ka8B w - - - 100 90"
	tenMoves   = "QL1:w,QL6:b,KL1:w,KL6:b Ka8QL6,Qd1W,ka8B w - - - 10 90"
)

// The event believes a set's result only when it follows from the
// position (replayed by the rules core), or from a recorded resignation,
// agreement, flag (the clock shows it) or an arbiter's decision; a state
// whose moves do not replay is not taken at all. Board 1 of round 1 is
// Spock-Uhura on s1.
func TestEventBelievesOnlyCredibleResults(t *testing.T) {
	moves := line(t, 6, 3)
	st := func(result, reason, start string, moves []string, c *clock.Snapshot) protocol.State {
		s := state("Test", "1", "1", "Spock", "Uhura", "g1", result, reason)
		s.Start, s.Moves, s.Clock = start, moves, c
		return s
	}
	clk := func(w, b int64, flag string) *clock.Snapshot {
		return &clock.Snapshot{Control: "180+2", WhiteMS: w, BlackMS: b, Flag: flag, Stopped: true}
	}
	for _, tc := range []struct {
		name  string
		st    protocol.State
		want  tournament.Result // None: not believed
		moves int               // the moves the record takes
	}{
		{"checkmate on the board", st("1-0", "checkmate", mateInOne, []string{mateMove}, nil), tournament.WhiteWins, 1},
		{"checkmate scored for the mated side", st("0-1", "checkmate", mateInOne, []string{mateMove}, nil), tournament.None, 1},
		{"a mated side's resignation scored as a win", st("0-1", "resignation", mateInOne, []string{mateMove}, nil), tournament.None, 1},
		{"checkmate claimed, the game goes on", st("1-0", "checkmate", "", moves, nil), tournament.None, 6},
		{"stalemate on the board", st("1/2-1/2", "stalemate", stalemateInOne, []string{stalemateMove}, nil), tournament.Draw, 1},
		{"stalemate scored as a win", st("1-0", "stalemate", stalemateInOne, []string{stalemateMove}, nil), tournament.None, 1},
		{"stalemate claimed, the game goes on", st("1/2-1/2", "stalemate", "", moves, nil), tournament.None, 6},
		{"dead position claimed, the game goes on", st("1/2-1/2", "dead position", "", moves, nil), tournament.None, 6},
		{"resignation", st("0-1", "resignation", "", moves, nil), tournament.BlackWins, 6},
		{"a resignation scored as a draw", st("1/2-1/2", "resignation", "", moves, nil), tournament.None, 6},
		{"agreement", st("1/2-1/2", "agreement", "", moves, nil), tournament.Draw, 6},
		{"an agreement scored as a win", st("1-0", "agreement", "", moves, nil), tournament.None, 6},
		{"white's flag fell", st("0-1", "time", "", moves, clk(0, 41000, "white")), tournament.BlackWins, 6},
		{"black at zero", st("1-0", "time", "", moves, clk(12000, 0, "")), tournament.WhiteWins, 6},
		{"a flag, the opponent cannot mate", st("1/2-1/2", "time", "", moves, clk(12000, 0, "black")), tournament.Draw, 6},
		{"a forged flag: both clocks running", st("0-1", "time", "", moves, clk(1000, 9999000, "")), tournament.None, 6},
		{"a flag scored for the flagged side", st("1-0", "time", "", moves, clk(0, 41000, "white")), tournament.None, 6},
		{"on time, no clock", st("0-1", "time", "", moves, nil), tournament.None, 6},
		{"the 50-move rule", st("1/2-1/2", "50-move rule", fiftyMoves, nil, nil), tournament.Draw, 0},
		{"the 50-move rule, 10 half-moves", st("1/2-1/2", "50-move rule", tenMoves, nil, nil), tournament.None, 0},
		{"the 50-move rule scored as a win", st("1-0", "50-move rule", fiftyMoves, nil, nil), tournament.None, 0},
		{"threefold repetition, none", st("1/2-1/2", "threefold repetition", "", moves, nil), tournament.None, 6},
		{"illegal moves (7.5.5)", st("1-0", "illegal moves", "", moves, nil), tournament.WhiteWins, 6},
		{"an arbiter's decision", st("1-0", "arbiter: Uhura's phone rang", "", moves, nil), tournament.WhiteWins, 6},
		{"no reason", st("1-0", "", "", moves, nil), tournament.None, 6},
		{"a reason of its own", st("0-1", "white left the hall", "", moves, nil), tournament.None, 6},
		{"a result of no kind", st("2-0", "resignation", "", moves, nil), tournament.None, 6},
		{"a move that is not legal", st("0-1", "resignation", "", append(line(t, 3, 3), "a1W-a9KL6"), nil), tournament.None, 0},
		{"moves of no notation", st("*", "", "", []string{"e2-e4", "zz"}, nil), tournament.None, 0},
		{"a start that is no position", st("0-1", "resignation", "nonsense", moves, nil), tournament.None, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := newEvent(t, &fakeLink{})
			r.PairNext()
			r.StartRound(1)
			r.Observe("s1", tc.st)
			s := r.Snapshot()
			g := s.Paired[0].Games[0]
			if g.Result != tc.want {
				t.Errorf("board 1's result %q (%s), want %q", g.Result, g.Reason, tc.want)
			}
			wantDis := 0
			if tc.want == tournament.None && tc.st.Result != "*" || tc.moves == 0 && len(tc.st.Moves) > 0 {
				wantDis = 1
			}
			if s.Sets[0].Disbelieved != wantDis {
				t.Errorf("s1 disbelieved %d states, want %d", s.Sets[0].Disbelieved, wantDis)
			}
			rec := r.recs[[2]int{1, 1}]
			if n := 0; rec != nil && len(rec.Moves) != tc.moves || rec == nil && tc.moves != n {
				t.Errorf("the record holds %v, want %d moves", rec, tc.moves)
			}
			if tc.moves == 0 && len(tc.st.Moves) > 0 && g.GameID != "" {
				t.Errorf("an unbelievable state bound game %s to board 1", g.GameID)
			}
		})
	}
}

// A state whose game is not the one the event took for the board is
// ignored for that board, whatever it says.
func TestEventIgnoresAnotherGameID(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	r.PairNext()
	r.StartRound(1)
	moves := line(t, 4, 1)
	ok := state("Test", "1", "1", "Spock", "Uhura", "g1", "*", "")
	ok.Moves = moves[:2]
	r.Observe("s1", ok)
	other := state("Test", "1", "1", "Spock", "Uhura", "g2", "0-1", "resignation")
	other.Moves = moves
	r.Observe("s1", other)
	g := r.Snapshot().Paired[0].Games[0]
	if g.Result.Over() || g.GameID != "g1" || len(r.recs[[2]int{1, 1}].Moves) != 2 {
		t.Errorf("game g2 counted on board 1: %+v, record %v", g, r.recs[[2]int{1, 1}].Moves)
	}
}

// gameLink answers each new_game with the id of the game the set started;
// hold, when set, keeps the answer back until it is closed.
type gameLink struct {
	fakeLink
	hold chan struct{}
}

func (l *gameLink) NewGame(set string, p map[string]any) (string, error) {
	if l.hold != nil {
		<-l.hold
	}
	if err := l.Send(set, protocol.CmdNewGame, p); err != nil {
		return "", err
	}
	return "new-" + set, nil
}

// Through a link that names the game a set started for the event's
// new_game, the board takes that game and no other: an older game of the
// set with the same tags (its retained state, arriving before the answer,
// or after) scores nothing.
func TestEventTakesTheGameItsSetAnswered(t *testing.T) {
	link := &gameLink{hold: make(chan struct{})}
	r, dir := newEvent(t, link)
	r.PairNext()
	done := make(chan []BoardReport)
	go func() { reps, _ := r.StartRound(1); done <- reps }()
	old := state("Test", "1", "1", "Spock", "Uhura", "old", "0-1", "resignation")
	// The old game's state comes while the command waits for its answer.
	waitFor(t, "the command sent", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.sending[[2]int{1, 1}] > 0
	})
	r.Observe("s1", old)
	if g := r.Snapshot().Paired[0].Games[0]; g.GameID != "" || g.Result.Over() {
		t.Fatalf("a state bound board 1 before the set answered: %+v", g)
	}
	close(link.hold)
	if reps := <-done; len(reps) != 2 || !reps[0].OK || !reps[1].OK {
		t.Fatalf("reports %+v", reps)
	}
	r.Observe("s1", old) // and after
	if g := r.Snapshot().Paired[0].Games[0]; g.GameID != "new-s1" || g.Result.Over() {
		t.Fatalf("board 1: %+v, want game new-s1 without a result", g)
	}
	r.Observe("s1", state("Test", "1", "1", "Spock", "Uhura", "new-s1", "1-0", "resignation"))
	if g := r.Snapshot().Paired[0].Games[0]; g.Result != tournament.WhiteWins {
		t.Errorf("board 1: %+v, want 1-0", g)
	}
	// The binding is journaled: a restart keeps it.
	r.Close()
	r2, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if g := r2.Snapshot().Paired[0].Games[1]; g.GameID != "new-s2" {
		t.Errorf("board 2 after a restart: %+v, want game new-s2", g)
	}
}

// An exhibition game's result (it feeds the leaderboard and the seeding)
// is believed as a round's game's is.
func TestExhibitionBelievesOnlyCredibleResults(t *testing.T) {
	r, _ := deskEvent(t, &fakeLink{})
	register(t, r, "Ann", 0, "F1", "")
	register(t, r, "Bob", 0, "F2", "")
	r.Online("s1", true)
	moves := line(t, 6, 3)
	ex := func(result, reason string, moves []string) protocol.State {
		st := state("Fest exhibition", "", "", "Ann", "Bob", "x1", result, reason)
		st.Moves = moves
		return st
	}
	for _, st := range []protocol.State{
		ex("1-0", "checkmate", moves),
		ex("0-1", "time", moves),
		ex("1-0", "resignation", append(line(t, 2, 3), "a1W-a9KL6")),
	} {
		r.Observe("s1", st)
	}
	if games, v := r.Exhibition(), r.Desk(); len(games) != 0 || len(v.Playing) != 1 || r.Snapshot().Sets[0].Disbelieved != 3 {
		t.Fatalf("games %+v, playing %+v, disbelieved %d: want none, Ann-Bob, 3", games, v.Playing, r.Snapshot().Sets[0].Disbelieved)
	}
	r.Observe("s1", ex("1-0", "resignation", moves))
	if games := r.Exhibition(); len(games) != 1 || games[0].Result != "1-0" {
		t.Errorf("games %+v, want Ann-Bob 1-0", games)
	}
}

// An offline for a set (anyone may publish one on an open broker) is
// contradicted by the set's next state: the set is online again.
func TestSignedStateContradictsOffline(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	r.Online("s1", true)
	r.Online("s1", false)
	if r.Snapshot().Sets[0].Online {
		t.Fatal("offline not taken")
	}
	r.Observe("s1", state("Test", "", "", "A", "B", "x", "*", ""))
	if !r.Snapshot().Sets[0].Online {
		t.Error("the set's state after an offline left it offline")
	}
}

// BenchmarkBelieveState measures what believing one state costs the
// event: its moves replayed from the start by the rules core and its
// result checked, for a game of 120 half-moves.
func BenchmarkBelieveState(b *testing.B) {
	st := state("Bench", "1", "1", "A", "B", "g1", "1-0", "resignation")
	st.Moves = line(b, 120, 5)
	b.ReportMetric(float64(len(st.Moves)), "plies")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := replay("st3d", "", st)
		if err != nil {
			b.Fatal(err)
		}
		if err := credible(g, st); err != nil {
			b.Fatal(err)
		}
	}
}

// A set's states are replayed from where its last one left off: moves
// added, taken back, a move that is not legal after a good start.
func TestReplayFollowsTheSet(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	r.PairNext()
	r.StartRound(1)
	moves := line(t, 8, 2)
	st := func(n int, extra ...string) protocol.State {
		s := state("Test", "1", "1", "Spock", "Uhura", "g1", "*", "")
		s.Moves = append(slices.Clone(moves[:n]), extra...)
		return s
	}
	for _, s := range []protocol.State{st(2), st(4), st(3), st(5), st(5, "a1W-a9KL6"), st(6)} {
		r.Observe("s1", s)
	}
	if d := r.Snapshot().Sets[0].Disbelieved; d != 1 {
		t.Errorf("%d states disbelieved, want 1 (the move that is not legal)", d)
	}
	if got := r.recs[[2]int{1, 1}].Moves; !slices.Equal(got, moves[:6]) {
		t.Errorf("the record holds %v, want %v", got, moves[:6])
	}
	end := st(8)
	end.Result, end.Reason = "0-1", "resignation"
	r.Observe("s1", end)
	if g := r.Snapshot().Paired[0].Games[0]; g.Result != tournament.BlackWins {
		t.Errorf("board 1: %+v", g)
	}
}

// BenchmarkBelieveNextState is BenchmarkBelieveState for the state after
// the one before: only its new move is played.
func BenchmarkBelieveNextState(b *testing.B) {
	r := &Runner{replays: map[string]*replayed{}}
	moves := line(b, 120, 5)
	prev := state("Bench", "1", "1", "A", "B", "g1", "*", "")
	prev.Moves = moves[:len(moves)-1]
	next := prev
	next.Moves = moves
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.replaySet("s1", "st3d", "", prev); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := r.replaySet("s1", "st3d", "", next); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
	}
}
