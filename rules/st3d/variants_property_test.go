package st3d

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// optExpectedOccupancy derives the occupancy after m from the occupancy
// before it and m's Info, for the moves the options add too.
func optExpectedOccupancy(p *Position, m rules.Move) rules.CellSet {
	in := p.Info(m)
	occ := p.Occupancy()
	switch {
	case mKind(m) == kindExt && mExt(m) == extPlace:
		occ.Add(in.To)
		if Piece(mFrom(m)) == Queen { // rook, king, rook fill the squares left
			for _, s := range virtualRank[p.side] {
				if c := SquareCell(s); c != in.To && !occ.Has(c) {
					occ.Add(c)
				}
			}
		}
	case mKind(m) == kindExt && mExt(m) == extRotate:
		q := Pin(mFrom(m))
		cs := p.carried(q)
		occ.Remove(SquareCell(cs))
		occ.Add(SquareCell(turned(q, cs)))
	case mKind(m) == kindExt: // a pawn's promotion to a board
		occ = occ.Minus(in.Touched)
		occ.Add(in.To)
	case m&castle960Bit != 0:
		occ = occ.Minus(in.Touched)
		_, _, kd, rd := castle960Squares(m, p.side)
		occ.Add(SquareCell(kd))
		occ.Add(SquareCell(rd))
	case in.Board && in.PromoteTo == 'A':
		q, o := Pin(mFrom(m)), Pin(mTo(m))
		occ.Add(in.To)
		if cs := p.carried(q); cs != NoSquare {
			occ.Remove(SquareCell(cs))
			occ.Add(SquareCell(o.Squares()[cs-q.Squares()[0]]))
		}
		occ.Remove(in.Promoted) // the pawn leaves; a new board stands on q
	default:
		return expectedOccupancy(p, m)
	}
	return occ
}

// optKinds names the kinds of moves the property test must meet.
func optKind(p *Position, m rules.Move) string {
	switch {
	case mKind(m) == kindExt:
		return [...]string{"place", "pawn=A", "turn", "?"}[mExt(m)]
	case m&castle960Bit != 0:
		return "castle960"
	case mKind(m) == kindBoard && mPromo(m) == promoBoard:
		return "board=A"
	}
	return "other"
}

// TestOptionsMakeUnmakeAndOccupancy plays seeded random games under the
// options and checks, for every legal move: unmake restores the position
// exactly; the position after it is consistent; its occupancy follows from
// Info alone; its long and short forms read back to it; the bulk count
// agrees with the generator; the position string reads back to the
// position.
func TestOptionsMakeUnmakeAndOccupancy(t *testing.T) {
	rng := rulestest.Rand(96)
	seen := map[string]int{}
	claims := 0
	starts := []struct{ opts, pos string }{
		{"V.A1,V.A2,V.A3,V.A4", ""},
		{"V.A2,V.A2.1,V.A5", ""},
		{"V.A2,V.A3,V.A5", "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra0QL1,Pz8QL6,kc6N,pd2W,Pa7B w - - - 0 10"},
		{"V.A3", "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Pb6N,Kb1W,kd9KL6,pa3W w - - - 0 30"},
		{"V.P5:0", ""},
		{"V.P5:518,V.A2", ""},
		{"V.P5:409", b960 + "Rb1W,Kc1W,Re0KL1,Pe1KL1,ra9QL6,kc8B,re9KL6,pe8KL6 w b1W,e0KL1,a9QL6,e9KL6 - - 0 5"},
		{"V.P6,V.A4", ""},
		{"V.P6", ""},
		{"V.P1,V.A1", ""},
		{"V.P2", ""},
	}
	buf := make([]rules.Move, 0, maxMoves)
	for game := 0; game < 3*len(starts); game++ {
		st := starts[game%len(starts)]
		o := mustOptions(t, st.opts)
		var p Position
		if st.pos == "" {
			p = *optStart(t, st.opts)
		} else {
			p = *optParse(t, st.opts, st.pos)
		}
		for ply := 0; ply < 120; ply++ {
			moves := p.LegalMoves(nil)
			if got := p.countLegal(buf); got != len(moves) {
				t.Fatalf("%s: countLegal %d, moves %d", p.String(), got, len(moves))
			}
			if back, err := ParseWith(p.String(), o); err != nil || back.String() != p.String() || !sameUpToStaleRights(back, p) {
				t.Fatalf("%s: position string reads back as %s, %v", p.String(), back.String(), err)
			}
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				before := p
				u := p.make(m)
				consistent(t, &p)
				after := p.Occupancy()
				if u.claimed != 0 {
					claims++
				}
				p.unmake(m, u)
				if p != before {
					t.Fatalf("%s: unmake(%s) left %s", before.String(), before.Long(m), p.String())
				}
				if want := optExpectedOccupancy(&p, m); after != want {
					t.Fatalf("%s: %s: occupancy after differs from Info in %v", p.String(), p.Long(m), cells(after.Xor(want)))
				}
				for _, s := range []string{p.Long(m), p.Short(m)} {
					if back, _, err := p.ParseMove(s); err != nil || back != m {
						t.Fatalf("%s: %q reads back as %s, %v", p.String(), s, p.Long(back), err)
					}
				}
				seen[optKind(&p, m)]++
			}
			p.make(moves[rng.Intn(len(moves))])
		}
	}
	for _, k := range []string{"place", "pawn=A", "turn", "castle960", "board=A"} {
		if seen[k] == 0 {
			t.Errorf("random games never tried a move of kind %s", k)
		}
	}
	if claims == 0 {
		t.Errorf("random games never claimed a neutral board")
	}
}

func FuzzParseWith(f *testing.F) {
	f.Add("V.A4", "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL6:b Kb1W,kc8B w - - - 0 10")
	f.Add("V.P5:409", StartString)
	f.Add("V.P5:0", b960+"Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5")
	f.Add("V.P6", "QL1:w,QL6:b,KL1:w,KL6:b Bb1W,Pa2W,pa7B b - - - 0 1")
	f.Add("V.A3,V.A2", "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30")
	f.Fuzz(func(t *testing.T, opts, s string) {
		o, err := ParseOptions(opts)
		if err != nil {
			return
		}
		p, err := ParseWith(s, o)
		if err != nil {
			return
		}
		out := p.String()
		q, err := ParseWith(out, o)
		if err != nil {
			t.Fatalf("ParseWith(%q) ok but its output %q is refused: %v", s, out, err)
		}
		if q.String() != out || q != p {
			t.Fatalf("round trip changed the position: %q -> %q", out, q.String())
		}
		p.LegalMoves(nil) // must not panic
	})
}

// sameUpToStaleRights compares two positions but for the rook home of a
// 960 right no longer held (make leaves it; a reader has nothing to say).
func sameUpToStaleRights(a, b Position) bool {
	for i := uint(0); i < 4; i++ {
		if a.castle&(1<<(castle960Shift+i)) == 0 {
			a.opt.rook[i], b.opt.rook[i] = NoSquare, NoSquare
		}
	}
	return a == b
}

func FuzzOptionsParseMove(f *testing.F) {
	for _, s := range []string{"QL1@", "QL6@=Q", "QL6@Q", "a8BA", "a7B-a8B=A", "QL6-QL4=A", "QL6-QL4A", "B@b1W", "N@a0QL1", "0-0", "0-0-0", "@", "=A"} {
		f.Add(s)
	}
	positions := []*Position{
		optParse(f, "V.A2", "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra0QL1,Pz8QL6,kc6N w - - - 0 10"),
		optParse(f, "V.A3", "QL1:w,KL1:w Kb1W,Pa7B,Pd7B,kc5N w - - - 0 30"),
		optParse(f, "V.A3", "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30"),
		optStart(f, "V.P6"),
		optParse(f, "V.P5:409", b960+"Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, _, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			for _, form := range []string{p.Long(m), p.Short(m)} {
				if back, _, err := p.ParseMove(form); err != nil || back != m {
					t.Fatalf("%q read as %s, whose form %q reads back as %v (%v)", s, p.Long(m), form, back, err)
				}
			}
		}
	})
}
