package millennium

import "testing"

func TestPerftStartQuick(t *testing.T) {
	p := StartPosition()
	for d, want := range []uint64{100, 9992, 1061917} {
		if got := p.Perft(d + 1); got != want {
			t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
		}
	}
}
