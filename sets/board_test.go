package sets_test

import (
	"testing"

	"github.com/tridboard/tridboard/sets"
)

// The reference and matrix boards read their set through their wiring:
// the expanders' registers hold the cells the presets put on them.
func TestBoardsReadThroughWiring(t *testing.T) {
	// Reference: 0x20 holds W; ranks 1-2 (GPA) closed, 3-4 (GPB) open.
	ref := sets.NewReference("promote")
	b := ref.Bus
	r := make([]byte, 2)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.Tx(0x20, []byte{0x0C, 0xFF, 0xFF}, nil))
	must(b.Tx(0x20, []byte{0x12}, r))
	if r[0] != 0x00 || r[1] != 0xFF {
		t.Fatalf("W at start: % x", r)
	}
	// 0x23: QL1 presence (bit 0) and its squares (1..4) closed, QL2/QL3 open,
	// bit 15 the button.
	must(b.Tx(0x23, []byte{0x0C, 0xFF, 0xFF}, nil))
	must(ref.Set.Press("button:promote"))
	must(b.Tx(0x23, []byte{0x12}, r))
	if r[0] != 0xE0 || r[1] != 0x7F {
		t.Fatalf("0x23 at start: % x", r)
	}

	// Matrix behind the mux: nothing answers until the channel is selected.
	mx := sets.NewMatrix(true)
	b = mx.Bus
	if err := b.Tx(0x20, []byte{0x00, 0x00, 0xFF}, nil); err == nil {
		t.Fatal("muxed expander answered with no channel selected")
	}
	must(b.Tx(0x70, []byte{1 << 3}, nil))
	must(b.Tx(0x20, []byte{0x00, 0x00, 0xFF}, nil))         // IODIRA out, IODIRB in
	must(b.Tx(0x20, []byte{0x0C, 0x00, 0xFF}, nil))         // GPPUB
	for row, want := range []byte{0x00, 0xFF, 0xFF, 0xFF} { // row 0 = cells 0..7 = W ranks 1-2
		must(b.Tx(0x20, []byte{0x12, ^byte(1 << row)}, r[:1]))
		if r[0] != want {
			t.Errorf("matrix row %d: %#x, want %#x", row, r[0], want)
		}
	}
	must(mx.Set.Lift("c2W")) // cell 6: row 0, col 6
	must(b.Tx(0x20, []byte{0x12, 0xFE}, r[:1]))
	if r[0] != 0x40 {
		t.Fatalf("row 0 after lifting c2W: %#x", r[0])
	}
}
