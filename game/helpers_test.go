package game

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// t0 is the fake clock's first reading.
var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeClock is a fake clock that steps one second at every reading.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t
	c.t = c.t.Add(time.Second)
	return t
}

// at is the fake clock's n-th reading, from 0.
func at(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }

func testOpts() *Opts {
	o := DefaultOpts()
	o.Now = newClock().Now
	return &o
}

// newGame starts a game in a new state directory.
func newGame(t testing.TB, start string) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := New(dir, st3d.System, start, Tags{Event: "Test", White: "Kirk", Black: "Spock"}, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// playAll plays moves in any notation.
func playAll(t testing.TB, s *Session, moves ...string) []Move {
	t.Helper()
	var out []Move
	for _, m := range moves {
		mv, _, err := s.PlayNotation(m)
		if err != nil {
			t.Fatalf("play %s: %v", m, err)
		}
		out = append(out, mv)
	}
	return out
}

// longs lists the long forms of moves.
func longs(moves []Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Move
	}
	return out
}

func seqs(moves []Move) []int {
	out := make([]int, len(moves))
	for i, m := range moves {
		out[i] = m.Seq
	}
	return out
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustMove finds a legal move of pos by notation.
func mustMove(t testing.TB, pos rules.Position, s string) rules.Move {
	t.Helper()
	m, _, err := pos.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Positions used by the tests.
const (
	// whiteMated: White to move is checkmated.
	whiteMated = "QL5:w,QL6:b,KL1:w,KL6:b Kd1W,ba3W,pb3W,pz8QL6,kz9QL6,Re0KL1,Pe1KL1,pe8KL6,rd9KL6 w - - z8QL6,e1KL1,e8KL6 2 38"
	// mateInOne: c5B-b5N (Rb5N#) mates.
	mateInOne = "QL1:w,QL6:b,KL1:w,KL6:b Kd3W,Qa6N,Rc5B,kc5N w - - - 0 40"
	// stalemateInOne: d1W-d9KL6 (Qd9KL6) stalemates.
	stalemateInOne = "QL1:w,QL6:b,KL1:w,KL6:b Ka8QL6,Qd1W,ka8B w - - - 0 40"
	// deadInOne: b5N-a6B (Kxa6B) leaves K v K, the only dead position
	// (D18).
	deadInOne = "QL1:w,QL6:b,KL1:w,KL6:b Kb5N,ke0KL1,ba6B w - - - 0 40"
	// fifty: the halfmove clock is 99.
	fifty = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,Nb1W,kd9KL6,nc8B w - - - 99 80"
	// rich: en passant, castling, promotion, a board move and captures
	// are a few moves away (richGame).
	rich = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,Re0KL1,Pe1KL1,Rz0QL1,Pb2W,Pb7B,Nd3W,pc4N,pe8KL6,kd9KL6,re9KL6,nc6N w K - b2W 0 10"
)

// richGame: double step, en passant capture, castling, promotion with
// check, a board carrying a rook, a capture by the new queen.
var richGame = []string{"b2W-b4N", "c4N-b3N", "0-0", "d9KL6-d8KL6", "b7B-b8B=Q", "d8KL6-d9KL6", "QL1-QL3", "c6N-d4N", "b8B-b3N"}

// shuffle: the knights go out and back twice; the start position then
// stands for the third time.
var shuffle = []string{"a1W-b3W", "a8B-b6B", "b3W-a1W", "b6B-a8B", "a1W-b3W", "a8B-b6B", "b3W-a1W", "b6B-a8B"}
