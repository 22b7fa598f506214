package sim

import (
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules/st3d"
)

func closedNames(s *Set) []string {
	n := s.Closed().Names(s.Cells())
	sort.Strings(n)
	return n
}

func TestSetStartAndPieces(t *testing.T) {
	s := NewSet(NewTimeSource(time.Time{}))
	s.Start()
	if got := s.Closed().Len(); got != 36 {
		t.Fatalf("start: %d closed cells, want 36", got)
	}
	for _, tc := range []struct {
		op, a, b string
		err      string
	}{
		{"lift", "b2W", "", ""},
		{"lift", "b2W", "", "sim: lift b2W: no piece there"},
		{"place", "b4W", "", ""},
		{"place", "b4W", "", "sim: place b4W: square occupied"},
		{"place", "z2QL3", "", "sim: place z2QL3: no board on QL3"},
		{"lift", "QL1", "", "sim: lift QL1: not a square"},
		{"move", "a1W", "a3N", ""},
		{"move", "c1W", "d1W", "sim: place d1W: square occupied"},
		{"liftboard", "QL3", "", "sim: lift board QL3: no board there"},
		{"placeboard", "QL3", "", "sim: place board QL3: no board in the air"},
	} {
		var err error
		switch tc.op {
		case "lift":
			err = s.Lift(tc.a)
		case "place":
			err = s.Place(tc.a)
		case "move":
			err = s.Move(tc.a, tc.b)
		case "liftboard":
			err = s.LiftBoard(tc.a)
		case "placeboard":
			err = s.PlaceBoard(tc.a)
		}
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s %s %s: error %q, want %q", tc.op, tc.a, tc.b, got, tc.err)
		}
	}
	c, _ := s.Cell("c1W")
	if !s.Closed().Has(c) {
		t.Fatal("failed move lost the piece")
	}
}

func TestSetBoardMoves(t *testing.T) {
	s := NewSet(NewTimeSource(time.Time{}))
	s.Start()
	if err := s.Lift("a0QL1"); err != nil {
		t.Fatal(err)
	}
	if err := s.LiftBoard("QL1"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"QL1", "z0QL1", "z1QL1", "a1QL1"} {
		if c, _ := s.Cell(n); s.Reading().Has(c) {
			t.Errorf("%s reads closed while its board is in the air", n)
		}
	}
	if err := s.LiftBoard("KL1"); err == nil || err.Error() != "sim: lift board KL1: the board of QL1 is still in the air" {
		t.Fatalf("second board: %v", err)
	}
	if err := s.PlaceBoard("QL6"); err == nil || err.Error() != "sim: place board QL6: pin taken" {
		t.Fatalf("taken pin: %v", err)
	}
	if err := s.PlaceBoard("QL3"); err != nil {
		t.Fatal(err)
	}
	if err := s.MoveBoard("QL3", "QL5"); err != nil {
		t.Fatal(err)
	}
	got := closedNames(s)
	want := []string{"QL5", "QL6", "KL1", "KL6", "z4QL5", "z5QL5", "a5QL5",
		"d0KL1", "e0KL1", "d1KL1", "e1KL1", "z8QL6", "a8QL6", "z9QL6", "a9QL6", "d8KL6", "e8KL6", "d9KL6", "e9KL6"}
	for f := 'a'; f <= 'd'; f++ {
		for _, r := range []string{"1W", "2W", "7B", "8B"} {
			want = append(want, string(f)+r)
		}
	}
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("closed after QL1 -> QL3 -> QL5:\n got %v\nwant %v", got, want)
	}
	// Pin.Squares order is what rides along.
	if sq := st3d.Pin(4).Squares(); sq[0].String() != "z4QL5" {
		t.Fatalf("QL5 squares %v", sq)
	}
}

func TestSetBounce(t *testing.T) {
	clk := NewTimeSource(time.Time{})
	s := NewSet(clk)
	c, _ := s.Cell("b3W")
	if err := s.Bounce("b3W", 0, time.Millisecond, 3*time.Millisecond); err == nil || err.Error() != "sim: bounce b3W: odd number of edges (3)" {
		t.Fatalf("odd bounce: %v", err)
	}
	if err := s.Bounce("b3W", time.Millisecond, time.Millisecond); err == nil {
		t.Fatal("non-increasing edges accepted")
	}
	if err := s.Place("b3W"); err != nil {
		t.Fatal(err)
	}
	us := time.Microsecond
	if err := s.Bounce("b3W", 0, 300*us, 500*us, 900*us); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at     time.Duration
		closed bool
	}{
		{0, false}, {299 * us, false}, {300 * us, true}, {499 * us, true},
		{500 * us, false}, {899 * us, false}, {900 * us, true}, {time.Second, true},
	} {
		clk.Set(Epoch.Add(tc.at))
		if got := s.Reading().Has(c); got != tc.closed {
			t.Errorf("at %v: closed %v, want %v", tc.at, got, tc.closed)
		}
	}
	if len(s.bounces) != 0 {
		t.Fatalf("finished bounce kept: %d", len(s.bounces))
	}
}
