package game

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// timed is the moves (long forms, each legal after the ones before) from
// pos for PlayAtMany, completed at at(1), at(2), ...
func timed(t *testing.T, pos rules.Position, longs ...string) []Timed {
	t.Helper()
	var out []Timed
	for i, l := range longs {
		m := mustMove(t, pos, l)
		out = append(out, Timed{Move: m, At: at(10 + i)})
		pos = pos.Play(m)
	}
	return out
}

// PlayAtMany journals moves waiting together with one fsync, and they are
// the same moves, seqs and times as played one by one; the game resumes
// with them.
func TestPlayAtManyOneFsync(t *testing.T) {
	var syncs int
	o := testOpts()
	o.openFile = func(name string, flag int) (file, error) {
		f, err := openFile(name, flag)
		return &hookFile{file: f, onSync: func() error { syncs++; return nil }}, err
	}
	dir := t.TempDir()
	s, err := New(dir, st3d.System, "", Tags{}, o)
	if err != nil {
		t.Fatal(err)
	}
	before := syncs
	got, err := s.PlayAtMany(timed(t, s.Position(), "d1W-c3W", "a8B-b6B", "b2W-b3W"))
	if err != nil {
		t.Fatal(err)
	}
	if n := syncs - before; n != 1 {
		t.Errorf("%d fsyncs for three moves, want 1", n)
	}
	if l := longs(got); !reflect.DeepEqual(l, []string{"d1W-c3W", "a8B-b6B", "b2W-b3W"}) {
		t.Fatalf("played %q", l)
	}
	for i, m := range got {
		if m.Seq != i+1 || !m.Time.Equal(at(10+i)) {
			t.Errorf("move %d: seq %d at %v, want seq %d at %v", i, m.Seq, m.Time, i+1, at(10+i))
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !reflect.DeepEqual(r.Moves(), got) {
		t.Errorf("resumed with %q, want %q", longs(r.Moves()), longs(got))
	}
}

// PlayAtMany plays the moves up to the first that PlayAt would refuse and
// says why: an illegal one, or any after the game ended.
func TestPlayAtManyStopsWhereRefused(t *testing.T) {
	s, _ := newGame(t, "")
	moves := timed(t, s.Position(), "d1W-c3W", "a8B-b6B")
	moves = append(moves, Timed{Move: moves[0].Move}) // d1W-c3W again: not legal
	got, err := s.PlayAtMany(moves)
	if l := longs(got); !reflect.DeepEqual(l, []string{"d1W-c3W", "a8B-b6B"}) || err == nil ||
		!strings.Contains(err.Error(), "play: move") || !strings.Contains(err.Error(), "is not legal") {
		t.Fatalf("played %q, %v", l, err)
	}
	if l := longs(s.Moves()); len(l) != 2 {
		t.Errorf("the session holds %q", l)
	}

	s, _ = newGame(t, mateInOne)
	mate := timed(t, s.Position(), "c5B-b5N")
	after := s.Position().Play(mate[0].Move)
	reply := after.LegalMoves(nil)
	got, err = s.PlayAtMany(append(mate, Timed{Move: rules.Move(1)}, Timed{}))
	if l := longs(got); len(l) != 1 || !errors.Is(err, ErrGameOver) || len(reply) != 0 {
		t.Fatalf("played %q, %v (replies after the mate: %d)", l, err, len(reply))
	}
	if r, why := s.Result(); r != rules.WhiteWins || why != ReasonCheckmate {
		t.Errorf("Result %s %s", r, why)
	}
}

// A failed fsync refuses every move of the batch and cuts the journal back
// to where it was; the seqs are handed out again.
func TestPlayAtManyFailedFsync(t *testing.T) {
	var fail error
	o := testOpts()
	o.openFile = func(name string, flag int) (file, error) {
		f, err := openFile(name, flag)
		return &hookFile{file: f, onSync: func() error { e := fail; fail = nil; return e }}, err
	}
	s, err := New(t.TempDir(), st3d.System, "", Tags{}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	size := len(readFile(t, s.Path()))
	fail = errors.New("injected sync failure")
	moves := timed(t, s.Position(), "d1W-c3W", "a8B-b6B")
	got, err := s.PlayAtMany(moves)
	want := fmt.Sprintf("game %s: journal %s: records 2-3 at offset %d: injected sync failure", s.ID(), s.Path(), size)
	if len(got) != 0 || err == nil || err.Error() != want {
		t.Fatalf("played %q, %v; want none, %s", longs(got), err, want)
	}
	if b, _ := os.ReadFile(s.Path()); len(b) != size {
		t.Errorf("journal is %d bytes, want %d", len(b), size)
	}
	if len(s.Moves()) != 0 {
		t.Errorf("the session holds %q", longs(s.Moves()))
	}
	got, err = s.PlayAtMany(moves)
	if err != nil || len(got) != 2 || got[0].Seq != 1 {
		t.Fatalf("again: %q, %v", longs(got), err)
	}
}
