package web

import (
	"net/http/httptest"
	"testing"
)

// Two views of a hall, the page on the first: when that view dies the wall
// moves to the other (/api/peers), which is behind it; the older summary
// it sends first is dropped, and its newer one shown. The board never goes
// back on the wall.
func TestWallMovesToAnotherViewAndNeverGoesBack(t *testing.T) {
	ha, hb := NewHub(DefaultOpts()), NewHub(DefaultOpts())
	fa := newFakeSet(t, ha, "b1", "st3d")
	fb := newFakeSet(t, hb, "b1", "st3d")
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "c2W-c4W"} {
		fa.play(m)
	}
	fb.play("b2W-b4N") // view B is two moves behind
	srvB := httptest.NewServer(New(hb, DefaultServerOpts()).Handler())
	t.Cleanup(srvB.Close)
	o := DefaultServerOpts()
	o.Peers = []string{srvB.URL}
	srvA := httptest.NewServer(New(ha, o).Handler())
	t.Cleanup(srvA.Close)
	ctx := open(t, srvA.URL+"/")
	waitJS(t, ctx, "the board at move 3 from view A", `(() => { const c = window.tridboardWall.cards.get('b1'); return !!c && !!c.sum && c.sum.seq === 3; })()`)
	srvA.CloseClientConnections()
	srvA.Close() // view A dies
	waitJS(t, ctx, "view B's older summary dropped", `window.tridboardWall.dropped >= 1`)
	if seq := evalJS[float64](t, ctx, `window.tridboardWall.cards.get('b1').sum.seq`); seq != 3 {
		t.Fatalf("the wall shows move %v after view B's older summary, want 3", seq)
	}
	// View B catches up (its moves 2 and 3, stamped as on view A, are
	// dropped) and goes on: the wall shows move 4.
	for _, m := range []string{"b7B-b5N", "c2W-c4W", "c7B-c5B"} {
		fb.play(m)
	}
	waitJS(t, ctx, "move 4 from view B", `window.tridboardWall.cards.get('b1').sum.seq === 4`)
	noErrors(t, ctx)
}
