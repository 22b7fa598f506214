package event

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/tournament"
)

// line returns n legal moves of st3d in long form, chosen by seed, that do
// not end the game.
func line(t testing.TB, n, seed int) []string {
	sys, err := systems.Lookup("st3d", "")
	if err != nil {
		t.Fatal(err)
	}
	pos := sys.Start()
	var out []string
	for i := 0; i < n; i++ {
		ms := pos.LegalMoves(nil)
		for k := 0; k < len(ms); k++ {
			m := ms[(i*7+seed+k)%len(ms)]
			next := pos.Play(m)
			if next.Status() == rules.Ongoing {
				out = append(out, pos.Long(m))
				pos = next
				break
			}
		}
	}
	if len(out) != n {
		t.Fatalf("no line of %d moves", n)
	}
	return out
}

// playing returns the state of a game after moves, with the mover's clock
// after each move as the set records it (60 s less 1 s a move), and the
// clock now.
func playing(st protocol.State, moves []string, withClk bool) protocol.State {
	st.Moves = moves
	if withClk {
		st.ClkMS = make([]int64, len(moves))
		for i := range moves {
			st.ClkMS[i] = 60000 - int64(i/2+1)*1000
		}
	}
	st.Turn = rules.White
	if len(moves)%2 == 1 {
		st.Turn = rules.Black
	}
	if len(moves) > 0 {
		st.LastMove = &protocol.LastMove{Seq: len(moves), Move: moves[len(moves)-1]}
		ms := 60000 - int64((len(moves)+1)/2)*1000
		st.Clock = &clock.Snapshot{Control: "60", WhiteMS: ms, BlackMS: ms}
	}
	return st
}

func records(t *testing.T, r *Runner, rounds int) string {
	var b bytes.Buffer
	for n := 1; n <= rounds; n++ {
		if err := r.RoundPGN(&b, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.TRF(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every move and clock the event saw is journaled: a runner opened again
// on the journal writes the same round PGN (moves and [%clk]) and TRF.
// Clocks come from the state's clk_ms when it has them (so moves made while
// the event was away keep theirs), else from the clock after the move.
func TestRecordsSurviveARestart(t *testing.T) {
	link := &fakeLink{}
	r, dir := newEvent(t, link)
	r.PairNext()
	r.StartRound(1)
	mv := line(t, 12, 1)
	b1 := state("Test", "1", "1", "Spock", "Uhura", "g1", "*", "")
	b2 := state("Test", "1", "2", "Sulu", "Kirk", "g2", "*", "")
	for k := 1; k <= 12; k++ {
		r.Observe("s1", playing(b1, mv[:k], false))
	}
	r.Observe("s2", playing(b2, mv[:6], true))
	before := records(t, r, 1)
	if n := strings.Count(before, "[%clk "); n != 18 {
		t.Errorf("%d clocks in the PGN, want 18:\n%s", n, before)
	}
	if !strings.Contains(before, "a4W {[%clk 0:00:54.0]} *") {
		t.Errorf("the last clock of board 1 is missing:\n%s", before)
	}
	r.Close()
	r2, err := Open(testOpts(t, dir), link)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if after := records(t, r2, 1); after != before {
		t.Errorf("after the restart:\n%s\nbefore:\n%s", after, before)
	}
	// A take-back: the record follows the set.
	r2.Observe("s1", playing(b1, mv[:11], false))
	r2.Observe("s1", playing(state("Test", "1", "1", "Spock", "Uhura", "g1", "1-0", "resignation"), mv[:11], false))
	var pgn bytes.Buffer
	r2.GamePGN(&pgn, 1, 1)
	if strings.Count(pgn.String(), "[%clk") != 11 || !strings.Contains(pgn.String(), `[Result "1-0"]`) {
		t.Errorf("after the take-back and the resignation:\n%s", pgn.String())
	}
}

// A damaged record in the middle of the journal is cut out and reported
// with what it held; the records after it are kept, those that no longer
// apply are listed, and the damaged file is kept aside.
func TestJournalDamageInTheMiddle(t *testing.T) {
	r, dir := newEvent(t, &fakeLink{})
	r.PairNext()
	r.Swap(1, 1, "drawn again")
	r.StartRound(1)
	r.SetResult(1, 2, "0-1", "arbiter: Sulu resigned at the board")
	r.Close()
	name := filepath.Join(dir, journalName)
	data, _ := os.ReadFile(name)
	lines := strings.SplitAfter(string(data), "\n")
	// create, pair, swap, start, result: damage the swap.
	if len(lines) != 6 || !strings.Contains(lines[2], `"op":"swap"`) {
		t.Fatalf("journal:\n%s", data)
	}
	lines[2] = strings.Replace(lines[2], "drawn again", "drawn agaiN", 1)
	os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644)

	r2, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatalf("the event does not start: %v", err)
	}
	defer r2.Close()
	s := r2.Snapshot()
	if len(s.Damage) != 1 {
		t.Fatalf("damage %+v", s.Damage)
	}
	d := s.Damage[0]
	if d.Record != 3 || d.Reason != "checksum mismatch" || d.What != "a swap decision, round 1, board 1" || d.Bytes != int64(len(lines[2])) {
		t.Errorf("damage reported as %+v", d)
	}
	if !s.Paired[0].Started || s.Paired[0].Games[1].Result != tournament.BlackWins {
		t.Errorf("the decisions after the damage were lost: %+v", s.Paired[0])
	}
	if g := s.Paired[0].Games[0]; g.White != 2 { // Spock, as paired: the swap is lost
		t.Errorf("board 1 %+v", g)
	}
	if _, err := os.Stat(name + ".damaged"); err != nil {
		t.Errorf("the damaged file was not kept: %v", err)
	}
	// The journal was rewritten without the damage: a third start is clean.
	r2.Close()
	r3, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	if d := r3.Snapshot().Damage; len(d) != 0 {
		t.Errorf("damage again: %+v", d)
	}

	// Damage to the pairing itself: the start and the result that followed
	// from it are reported as no longer applying, the event starts.
	r4, dir4 := newEvent(t, &fakeLink{})
	r4.PairNext()
	r4.StartRound(1)
	r4.Close()
	name = filepath.Join(dir4, journalName)
	data, _ = os.ReadFile(name)
	lines = strings.SplitAfter(string(data), "\n")
	lines[1] = strings.Replace(lines[1], `"op":"pair"`, `"op":"pain"`, 1)
	os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644)
	r5, err := Open(testOpts(t, dir4), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r5.Close()
	d = r5.Snapshot().Damage[0]
	if d.What != "a pain decision, round 1, board 1" || len(d.Skipped) != 1 || !strings.HasPrefix(d.Skipped[0], "start round 1") {
		t.Errorf("damage %+v", d)
	}
	if len(r5.Snapshot().Paired) != 0 {
		t.Error("a pairing appeared")
	}
}

// A forfeit is no game: no PGN, no pgn file in the index, and an
// illegal-move loss is PGN's "rules infraction".
func TestForfeitAndRulesInfraction(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	r.PairNext()
	r.StartRound(1)
	r.SetResult(1, 1, "+-", "Uhura did not come")
	r.Observe("s2", playing(state("Test", "1", "2", "Sulu", "Kirk", "g2", "*", ""), line(t, 3, 2), true))
	r.SetResult(1, 2, "0-1", "arbiter: an illegal move, the second one")
	var b bytes.Buffer
	if err := r.RoundPGN(&b, 1); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "[Event "); n != 1 || strings.Contains(b.String(), "abandoned") ||
		!strings.Contains(b.String(), `[Termination "rules infraction"]`) {
		t.Errorf("round PGN:\n%s", b.String())
	}
	if err := r.GamePGN(&b, 1, 1); err == nil {
		t.Error("a forfeit has a PGN")
	}
	ix, _ := r.Index(1)
	if ix.Pairings[0].PGN != "" || ix.Pairings[0].Result != "+-" || ix.Pairings[1].PGN != "game-2.pgn" {
		t.Errorf("index %+v", ix)
	}
}

func TestTermination(t *testing.T) {
	for reason, want := range map[string]string{"checkmate": "normal", "time": "time forfeit", "resignation": "normal",
		"illegal move": "rules infraction", "arbiter: illegal move claim": "rules infraction",
		"arbiter: adjudicated": "adjudication", "threefold repetition": "normal"} {
		if got := termination(reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}

// More games than sets: the games go to the sets in board order, then to
// the tables (no sensors: nothing sent, the arbiter enters the result),
// the rest wait; a game ending frees its board for the first waiting game.
// Sets are added and removed as the event runs; everything replays.
func TestMoreGamesThanSets(t *testing.T) {
	link := &fakeLink{}
	dir := t.TempDir()
	var ps []tournament.Player
	for i := 0; i < 10; i++ {
		ps = append(ps, tournament.Player{Name: fmt.Sprintf("P%02d", i+1), Rating: 2000 - 10*i})
	}
	r, err := Create(testOpts(t, dir), Config{Name: "Test", System: tournament.Swiss, Rounds: 3,
		Boards: []string{"s1", "s2"}, Tables: []string{"T1"}}, ps, link)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { r.Close() }()
	if _, err := r.PairNext(); err != nil {
		t.Fatalf("5 games on 2 sets and a table: %v", err)
	}
	reps, err := r.StartRound(1)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(reps)
	if want := "[{1 s1 true  false false} {2 s2 true  false false} {3 T1 true  true false} {4  false  false true} {5  false  false true}]"; got != want {
		t.Errorf("start:\n%s\nwant\n%s", got, want)
	}
	if s := r.Snapshot(); fmt.Sprint(s.Waiting) != "[4 5]" {
		t.Errorf("waiting %v", s.Waiting)
	}
	if err := r.RemoveSet("s1", "broken"); err == nil {
		t.Error("a set playing a game was removed")
	}
	// Board 2's game ends on its set: board 4's goes there.
	g2, _ := r.t.Game(1, 2)
	name := func(no int) string { return ps[no-1].Name }
	r.Observe("s2", state("Test", "1", "2", name(g2.White), name(g2.Black), "g2", "1-0", "resignation"))
	waitFor(t, "board 4 sent to s2", func() bool {
		link.mu.Lock()
		defer link.mu.Unlock()
		return len(link.sent) == 3 && strings.HasPrefix(link.sent[2], "s2 new_game") && strings.HasSuffix(link.sent[2], "r1 b4")
	})
	// The table's result, entered by the arbiter: board 5 goes to the table.
	reps, err = r.SetResult(1, 3, "1/2-1/2", "agreed at the table")
	if err != nil || len(reps) != 1 || reps[0].Board != 5 || !reps[0].Table {
		t.Errorf("table freed: %+v %v", reps, err)
	}
	// A set added while nothing waits; s1 removed once free.
	if _, err := r.AddSet("s3", "brought from the lobby"); err != nil {
		t.Fatal(err)
	}
	g1, _ := r.t.Game(1, 1)
	r.Observe("s1", state("Test", "1", "1", name(g1.White), name(g1.Black), "g1", "0-1", "resignation"))
	if err := r.RemoveSet("s1", "battery low"); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveSet("s9", "none"); err == nil {
		t.Error("an unknown set was removed")
	}
	before := r.Snapshot()
	r.Close()
	r, err = Open(testOpts(t, dir), link)
	if err != nil {
		t.Fatal(err)
	}
	after := r.Snapshot()
	if fmt.Sprint(before.Paired, before.Waiting) != fmt.Sprint(after.Paired, after.Waiting) {
		t.Errorf("replayed:\n%+v\nwas\n%+v", after.Paired, before.Paired)
	}
	var sets []string
	for _, s := range after.Sets {
		sets = append(sets, s.Set)
	}
	if fmt.Sprint(sets, after.Waiting) != "[s2 s3] []" {
		t.Errorf("sets %v, waiting %v", sets, after.Waiting)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for i := 0; !ok(); i++ {
		if i > 3000 {
			t.Fatalf("timed out waiting until %s", what)
		}
		sleepTick()
	}
}

func sleepTick() { time.Sleep(10 * time.Millisecond) }

// A set playing an exhibition game when a round starts is not given one of
// the round's games; when the exhibition game ends the first waiting game
// goes there. The start journals where each game went, so that a replay
// puts them there whatever the exhibition did.
func TestExhibitionSetSkippedByTheRound(t *testing.T) {
	link := &fakeLink{}
	r, dir := newEvent(t, link)
	r.Online("s1", true)
	r.Online("s2", true)
	r.Observe("s1", state("Test exhibition", "", "", "Kirk", "Spock", "x1", "*", ""))
	r.PairNext()
	reps, err := r.StartRound(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(reps); got != "[{1 s2 true  false false} {2  false  false true}]" {
		t.Errorf("start %s", got)
	}
	r.Observe("s1", state("Test exhibition", "", "", "Kirk", "Spock", "x1", "0-1", "resignation"))
	waitFor(t, "board 2 sent to s1", func() bool {
		link.mu.Lock()
		defer link.mu.Unlock()
		return len(link.sent) == 2 && strings.HasPrefix(link.sent[1], "s1 new_game") && strings.HasSuffix(link.sent[1], "r1 b2")
	})
	if ex := r.Exhibition(); len(ex) != 1 || ex[0].White != "Kirk" {
		t.Errorf("exhibition %+v", ex)
	}
	before := r.Snapshot().Paired
	r.Close()
	r2, err := Open(testOpts(t, dir), link)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if after := r2.Snapshot().Paired; fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("replayed %+v, was %+v", after, before)
	}
}
