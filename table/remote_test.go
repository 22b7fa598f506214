package table

import "testing"

// The remote peer's take-back state (issue 38): a request lapses once the
// game has another number of moves than when it was asked, and a take-back
// by hand held for it is then released (once); a take-back by hand refused
// (no request standing) is released when the set shows the move again, not
// while a request stands.
func TestRemotePeerTakeBacks(t *testing.T) {
	for _, tc := range []struct {
		name         string
		r            remotePeer
		moves        int
		lapse        bool // lapse(moves) releases
		asked        bool // the request stands after lapse
		backOnSet    bool // backOnSet releases, after lapse
		heldInTheEnd bool
	}{
		{name: "nothing asked", moves: 3},
		{name: "a request at the same move stands", r: remotePeer{tbAsk: &TakeBackRequest{At: 3}}, moves: 3, asked: true},
		{name: "a request lapses after a move", r: remotePeer{tbAsk: &TakeBackRequest{At: 3}}, moves: 4},
		{name: "a held hand take-back released by the lapse", r: remotePeer{tbAsk: &TakeBackRequest{At: 3, ByHand: true}, tbHeld: true},
			moves: 2, lapse: true},
		{name: "held while its request stands", r: remotePeer{tbAsk: &TakeBackRequest{At: 3, ByHand: true}, tbHeld: true},
			moves: 3, asked: true, heldInTheEnd: true},
		{name: "refused: released when the move is back on the set", r: remotePeer{tbHeld: true}, moves: 3, backOnSet: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			if got := r.lapse(tc.moves); got != tc.lapse {
				t.Errorf("lapse(%d) = %v, want %v", tc.moves, got, tc.lapse)
			}
			if (r.tbAsk != nil) != tc.asked {
				t.Errorf("after lapse: request %+v, want standing %v", r.tbAsk, tc.asked)
			}
			if got := r.backOnSet(); got != tc.backOnSet {
				t.Errorf("backOnSet() = %v, want %v", got, tc.backOnSet)
			}
			if r.tbHeld != tc.heldInTheEnd {
				t.Errorf("held %v in the end, want %v", r.tbHeld, tc.heldInTheEnd)
			}
			if r.lapse(tc.moves) || r.backOnSet() {
				t.Error("released twice")
			}
		})
	}
}
