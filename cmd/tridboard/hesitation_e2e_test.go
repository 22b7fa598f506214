package main

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sim"
)

// hesitatingHand sets every moved piece down on its way, on a legal target
// of its own, for 160-280 ms (or slides it through its line), and replies
// 150-400 ms after the other side's last placement.
func hesitatingHand(seed int64) *sim.Hand {
	h := sim.QuirkyHand(rand.New(rand.NewSource(seed)), 280*time.Millisecond, 0)
	h.TouchDown, h.TouchLegal, h.Touch = 1, 1, sim.Span{Min: 160 * time.Millisecond, Max: 280 * time.Millisecond}
	h.FastSwap = 0 // a victim swapped faster than the debounce is a limit of its own
	h.Reply = sim.Span{Min: 150 * time.Millisecond, Max: 400 * time.Millisecond}
	return h
}

// touchLines writes the hand's touches as simulator actions for
// run --sim's standard input.
func touchLines(b *strings.Builder, cells []string, touches []sim.Touch) {
	for _, tc := range touches {
		if tc.Wait > 0 {
			fmt.Fprintf(b, "wait %d\n", tc.Wait.Milliseconds())
		}
		for _, c := range tc.Open.Cells(nil) {
			fmt.Fprintf(b, "lift %s\n", cells[c])
		}
		for _, c := range tc.Close.Cells(nil) {
			fmt.Fprintf(b, "place %s\n", cells[c])
		}
		for _, c := range tc.Bounce.Cells(nil) {
			fmt.Fprintf(b, "bounce %s\n", cells[c])
		}
	}
}

// handGame draws a game of plies random legal moves (none that ends the
// game) played by h, and writes it as simulator actions.
func handGame(t *testing.T, h *sim.Hand, plies int) (moves []string, script string) {
	t.Helper()
	var b strings.Builder
	pos := rules.Position(st3d.Start())
	cells := st3d.CellNames()
	var prev []sim.Touch
	for len(moves) < plies {
		legal := pos.LegalMoves(nil)
		var m rules.Move
		for {
			m = legal[h.Rand.Intn(len(legal))]
			if in := pos.Info(m); !in.Promotion && pos.Play(m).Status() == rules.Ongoing {
				break
			}
		}
		touches := h.Move(pos, m)
		if prev != nil {
			fmt.Fprintf(&b, "wait %d\n", h.Pause(prev, touches).Milliseconds())
		}
		touchLines(&b, cells, touches)
		moves = append(moves, pos.Long(m))
		prev, pos = touches, pos.Play(m)
	}
	return moves, b.String()
}

// A 15 s game (under the low-time threshold from its first move) played on
// run --sim by a hesitating hand, every piece set down on a legal square on
// its way for up to 280 ms or slid through its line, replies 150-400 ms
// after the last placement: a real MQTT client receives exactly the moves
// played (issue 21: low time shortened the settle window to 150 ms and
// such a rest became a move).
func TestEndToEndLowTimeHesitation(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "blitz.yaml")
	// A set whose only button is the queen's: no clock buttons, so the
	// settle window and the reply's lift complete the moves (the buttons'
	// own test presses them).
	if err := os.WriteFile(cfg, []byte("clock:\n  time_control: \"15\"\nbuttons:\n  queen: \"button:queen\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	listen := freeport.Addr(t)
	d := startDaemon(t, state, listen, "--config", cfg)
	sub := subscribe(t, listen)
	moves, script := handGame(t, hesitatingHand(21), 12)
	if _, err := io.WriteString(d.stdin, script+"wait 1000\n"); err != nil {
		t.Fatal(err)
	}
	got := sub.waitFor(t, len(moves))
	for i, m := range got {
		if i >= len(moves) || m.Move != moves[i] {
			var have []string
			for _, g := range got {
				have = append(have, g.Move)
			}
			t.Fatalf("published %q, want %q", have, moves)
		}
	}
}
