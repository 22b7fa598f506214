package game

import (
	"testing"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// nosync is a journal file whose fsync does nothing, to measure the rest.
type nosync struct{ file }

func (nosync) Sync() error { return nil }

func benchPlay(b *testing.B, o *Opts) {
	s, err := New(b.TempDir(), st3d.System, "", Tags{}, o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// The knights shuffle for ever: repetition is claimed, never forced.
	var moves [4]rules.Move
	pos := st3d.Start()
	for i, l := range shuffle[:4] {
		moves[i] = mustMove(b, pos, l)
		pos = pos.Play(moves[i])
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Play(moves[i%4]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlay: one move with its journal append and fsync, on the file
// system of the test's temporary directory.
func BenchmarkPlay(b *testing.B) { benchPlay(b, nil) }

// BenchmarkPlayNoSync: the same without the fsync: rules, notation,
// encoding and the write.
func BenchmarkPlayNoSync(b *testing.B) {
	o := DefaultOpts()
	o.openFile = func(name string, flag int) (file, error) {
		f, err := openFile(name, flag)
		return nosync{f}, err
	}
	benchPlay(b, &o)
}

// BenchmarkSaveClock: the clock checkpoint the table keeps every second
// while a clock runs (written in place, no fsync), and the one it keeps at
// a clean shutdown (atomic replace with fsyncs).
func BenchmarkSaveClock(b *testing.B) {
	for _, sync := range []bool{false, true} {
		name := map[bool]string{false: "every-second", true: "shutdown"}[sync]
		b.Run(name, func(b *testing.B) {
			s, err := New(b.TempDir(), st3d.System, "", Tags{TimeControl: "180+2"}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			cp := clock.Checkpoint{Reading: clock.Reading{WhiteMS: 170000, BlackMS: 176000}, TurnMS: 4000}
			b.ReportAllocs()
			for b.Loop() {
				if err := s.SaveClock(cp, sync); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
