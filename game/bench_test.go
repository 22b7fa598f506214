package game

import (
	"testing"

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
