package recognize

import (
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// hintCache keeps the last fix sentence, built only when the fix changes.
type hintCache struct {
	fix  rules.CellSet
	n    int
	gen  int
	text string
}

// instructionFor says in a sentence how to set the cells of fix right.
func (r *Recognizer) instructionFor(fix rules.CellSet) string {
	h := &r.hint
	if h.text != "" && h.fix == fix && h.n == len(r.history) && h.gen == r.gen {
		return h.text
	}
	var put, off []string
	for _, c := range fix.Cells(nil) {
		name := r.cells[c]
		switch pc, ok := r.pos.CellPiece(c); {
		case !r.expected.Has(c):
			off = append(off, name)
		case ok:
			put = append(put, "the "+pieceName(pc)+" on "+name)
		default:
			put = append(put, "the board on "+name)
		}
	}
	var b strings.Builder
	if len(put) > 0 {
		b.WriteString("put back " + strings.Join(put, ", "))
	}
	if len(off) > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("take away what stands on " + strings.Join(off, ", "))
	}
	if b.Len() == 0 {
		b.WriteString("the board matches: hold still")
	}
	if n := len(r.history); r.opts.TakeBacks && n > 0 {
		last := r.history[n-1]
		b.WriteString(". If " + last.pos.Long(last.m) + " was recognized wrongly, putting back the position before it takes it back")
	}
	*h = hintCache{fix: fix, n: len(r.history), gen: r.gen, text: b.String()}
	return h.text
}

// pieceName is "white knight".
func pieceName(pc rules.Piece) string {
	kinds := [...]string{"piece", "pawn", "knight", "bishop", "rook", "queen", "king"}
	k := int(pc.Kind())
	if k >= len(kinds) {
		k = 0
	}
	return pc.Color().String() + " " + kinds[k]
}
