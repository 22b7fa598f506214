package game

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestNoSeqReused (issue 22): a complete record damaged after it was written
// (a flipped bit) may have been published, so its seq is skipped and the
// next move takes the one after; a torn write was never published and its
// seq is played again. The MQTT outbox's highest seq (Opts.Published) is
// never handed out again either.
func TestNoSeqReused(t *testing.T) {
	_, data, last, _ := damagedGame(t) // the last record is the move seq 4
	flip := func(i int, bit byte) []byte {
		b := bytes.Clone(data)
		b[i] ^= bit
		return b
	}
	zeroBody := append(bytes.Clone(data[:last+frameHead]), make([]byte, len(data)-last-frameHead)...)
	for _, tc := range []struct {
		name      string
		journal   []byte
		published int // the outbox's highest seq (0: none)
		complete  bool
		skip      *Skip
		next      int
	}{
		{"clean", data, 0, false, nil, 5},
		{"torn: last byte missing", data[:len(data)-1], 0, false, nil, 4},
		{"torn: zeros for a body", zeroBody, 0, false, nil, 4},
		{"bit flip in the body", flip(last+frameHead+5, 0x04), 0, true,
			&Skip{Game: gameID, From: 4, To: 4, Why: "the damaged records cut off may have held them"}, 5},
		{"bit flip in the newline", flip(len(data)-1, 0x01), 0, true,
			&Skip{Game: gameID, From: 4, To: 4, Why: "the damaged records cut off may have held them"}, 5},
		{"bit flip in the length", flip(last+7, 0x02), 0, true,
			&Skip{Game: gameID, From: 4, To: 4, Why: "the damaged records cut off may have held them"}, 5},
		{"torn, outbox published seq 4", data[:len(data)-1], 4, false,
			&Skip{Game: gameID, From: 4, To: 4, Why: "the MQTT outbox has published up to them"}, 5},
		{"clean, outbox ahead", data, 7, false,
			&Skip{Game: gameID, From: 5, To: 7, Why: "the MQTT outbox has published up to them"}, 8},
		{"clean, outbox behind", data, 2, false, nil, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := stateWith(t, gameID, tc.journal)
			o := testOpts()
			o.Published = func(id string) int {
				if id != gameID {
					t.Errorf("Published(%q), want %q", id, gameID)
				}
				return tc.published
			}
			s, err := Open(dir, o)
			if err != nil {
				t.Fatal(err)
			}
			if d := s.Recovered(); (d != nil && d.Complete) != tc.complete {
				t.Errorf("Recovered = %+v, want Complete %v", d, tc.complete)
			} else if d != nil {
				if _, err := os.Stat(d.Aside); err != nil {
					t.Errorf("no copy of what was cut: %v", err)
				}
			}
			if got := s.Skipped(); !reflect.DeepEqual(got, tc.skip) {
				t.Errorf("Skipped = %+v, want %+v", got, tc.skip)
			}
			mv := playFirst(t, s)
			if mv.Seq != tc.next {
				t.Errorf("next move seq %d, want %d", mv.Seq, tc.next)
			}
			want := s.Published()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			// The skip is journaled: the game reopens as it was, without
			// damage and without skipping again.
			o.Published = nil
			r, err := Open(dir, o)
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			defer r.Close()
			if r.Recovered() != nil || r.Skipped() != nil {
				t.Errorf("reopen: Recovered %v, Skipped %v", r.Recovered(), r.Skipped())
			}
			if got := r.Published(); !reflect.DeepEqual(got, want) {
				t.Errorf("reopen: seqs %v, want %v", seqs(got), seqs(want))
			}
			if mv := playFirst(t, r); mv.Seq != tc.next+1 {
				t.Errorf("reopen: next move seq %d, want %d", mv.Seq, tc.next+1)
			}
		})
	}
}

// TestReadOnly (issue 23): a reader (an export while the daemon plays)
// never writes: a half-written tail is left byte for byte, nothing is copied
// aside or skipped, and every change is refused.
func TestReadOnly(t *testing.T) {
	_, data, _, before := damagedGame(t)
	for _, cut := range []int{len(data), len(data) - 1, len(data) - 200} {
		dir, path := stateWith(t, gameID, data[:cut])
		o := testOpts()
		o.ReadOnly = true
		o.Published = func(string) int { return 99 }
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir, o)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if got, want := len(s.Moves()), len(before)+1; cut < len(data) && got != want-1 || cut == len(data) && got != want {
			t.Errorf("cut at %d: %d moves", cut, got)
		}
		if s.Recovered() != nil || s.Skipped() != nil {
			t.Errorf("cut at %d: Recovered %v, Skipped %v", cut, s.Recovered(), s.Skipped())
		}
		if _, _, err := s.PlayNotation("Nb6B"); !errors.Is(err, ErrReadOnly) {
			t.Errorf("cut at %d: play: %v, want ErrReadOnly", cut, err)
		}
		if _, err := s.TakeBack(); !errors.Is(err, ErrReadOnly) {
			t.Errorf("cut at %d: take back: %v, want ErrReadOnly", cut, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, path); !bytes.Equal(got, data[:cut]) {
			t.Errorf("cut at %d: the journal changed (%d bytes, want %d)", cut, len(got), cut)
		}
		if m, _ := filepath.Glob(path + ".damaged*"); len(m) > 0 {
			t.Errorf("cut at %d: a reader copied the journal aside: %v", cut, m)
		}
	}
}

// playFirst plays the first legal move.
func playFirst(t *testing.T, s *Session) Move {
	t.Helper()
	mv, err := s.Play(s.Position().LegalMoves(nil)[0])
	if err != nil {
		t.Fatal(err)
	}
	return mv
}
