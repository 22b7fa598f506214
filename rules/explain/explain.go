// Package explain says why a move shown on the set is illegal: given a
// position, the cell a piece (or an attack board, by its pin) was lifted
// from and the cell it was put on, it returns one sentence for the event
// and the displays, the rule it rests on, and the cells to light: the king
// would be in check (and from which piece), the line is blocked (by which
// piece, on which level), the square does not exist under the boards as
// they stand, an attack board may not go there (every rule of 3.6,
// D12-D15, V.A1-V.A5 the move breaks, the most telling first), the
// piece does not move like that, the piece is the other side's.
//
// It works on any rules.Position; the systems' own helpers (PseudoMoves,
// KingAttackers, Blocker, BoardMoveRules, CellExists) give the specific
// reasons, so that a system without them still gets the generic ones.
package explain

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/st3d"
)

// Reason is the kind of an explanation.
type Reason uint8

const (
	// Unknown: the move is illegal but no more specific reason applies.
	Unknown Reason = iota
	// Legal: the move is legal after all.
	Legal
	// NoPiece: nothing stands on the cell the move starts from.
	NoPiece
	// OtherSide: the piece or board belongs to the side not to move.
	OtherSide
	// OwnPiece: the target holds one of the mover's own pieces.
	OwnPiece
	// NoSquare: the target square does not exist as the boards stand.
	NoSquare
	// BoardRule: an attack board (a platform) may not go there.
	BoardRule
	// Blocked: a piece stands on the line between.
	Blocked
	// KingInCheck: the move would leave the mover's king attacked.
	KingInCheck
	// NotLikeThat: the piece does not move like that.
	NotLikeThat
)

var reasonNames = [...]string{"unknown", "legal", "no piece", "other side", "own piece", "no square",
	"board rule", "blocked", "king in check", "not like that"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Explanation is why a move is illegal.
type Explanation struct {
	Reason Reason
	// Rule is the rule cited ("D5", "D13", "V.A1", "F2", ...), or "".
	Rule string
	// Rules are all the rules an attack-board move breaks, Rule first
	// (its board on another side's turn, D12; more than one piece on it,
	// 3.6; a pin not adjacent, D13); nil for other moves.
	Rules []string
	// Text is one sentence for the event and the displays.
	Text string
	// Cells are the cells to light: from and to (when they are cells of
	// the set) and the culprits.
	Cells rules.CellSet
	// Culprits are the attacking pieces or the blocking piece.
	Culprits []rules.Cell
}

// The systems' helpers, found by interface.
type (
	pseudoMover interface {
		PseudoMoves(buf []rules.Move) []rules.Move
		KingAttackers(m rules.Move) []rules.Cell
	}
	blocker interface {
		Blocker(from, to rules.Cell) (rules.Cell, bool)
	}
)

var kindNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// Explain says why moving what stands on from to to is illegal in pos
// (Reason Legal when it is not). from and to are cells of pos's system;
// for an attack-board move they are the pins' presence cells.
func Explain(pos rules.Position, from, to rules.Cell) Explanation {
	names := pos.System().Cells()
	name := func(c rules.Cell) string {
		if int(c) < len(names) {
			return names[c]
		}
		return fmt.Sprintf("cell %d", c)
	}
	e := Explanation{}
	for _, c := range []rules.Cell{from, to} {
		if int(c) < len(names) {
			e.Cells.Add(c)
		}
	}
	say := func(r Reason, rule, format string, a ...any) Explanation {
		e.Reason, e.Rule, e.Text = r, rule, fmt.Sprintf(format, a...)
		if rule != "" {
			e.Text = strings.TrimSuffix(e.Text, ".") + " (" + rule + ")."
		}
		for _, c := range e.Culprits {
			e.Cells.Add(c)
		}
		return e
	}
	for _, m := range pos.LegalMoves(nil) {
		if in := pos.Info(m); in.From == from && in.To == to {
			return say(Legal, "", "%s to %s is legal.", name(from), name(to))
		}
	}
	if isBoardCell(pos, from) {
		return explainBoard(pos, from, to, name, &e, say)
	}
	pc, ok := pos.CellPiece(from)
	if !ok {
		return say(NoPiece, "", "There is no piece on %s.", name(from))
	}
	piece := kindNames[pc.Kind()]
	if pc.Color() != pos.Turn() {
		return say(OtherSide, "", "It is %s's move: the %s on %s is %s's.", pos.Turn(), piece, name(from), pc.Color())
	}
	if exists, rule, why := squareExists(pos, to); !exists {
		return say(NoSquare, rule, "%s does not exist: %s.", name(to), why)
	}
	if pm, ok := pos.(pseudoMover); ok {
		for _, m := range pm.PseudoMoves(nil) {
			if in := pos.Info(m); in.From == from && in.To == to {
				e.Culprits = pm.KingAttackers(m)
				king := to
				if pc.Kind() != rules.King {
					_, king = pos.InCheck()
				}
				e.Cells.Add(king)
				return say(KingInCheck, "", "Your king on %s would be in check from %s.", name(king), pieces(pos, e.Culprits, name))
			}
		}
	}
	if t, ok := pos.CellPiece(to); ok && t.Color() == pc.Color() {
		return say(OwnPiece, "", "%s holds your own %s.", name(to), kindNames[t.Kind()])
	}
	if b, ok := pos.(blocker); ok {
		if c, ok := b.Blocker(from, to); ok {
			e.Culprits = []rules.Cell{c}
			where := ""
			if lv := level(pos, c); lv != level(pos, from) && lv != level(pos, to) {
				where = " on another level"
			}
			rule := ""
			switch pos.(type) {
			case *st3d.Position:
				rule = "D5" // a piece on any level of a column blocks
			case *firstcontact.Position:
				rule = "F2"
			default:
				rule = "M6"
			}
			return say(Blocked, rule, "The line from %s to %s is blocked%s by %s.", name(from), name(to), where, pieces(pos, e.Culprits, name))
		}
	}
	return say(NotLikeThat, "", "A %s does not move from %s to %s.", piece, name(from), name(to))
}

// pieces names the pieces on cells: "the rook on d6N and the knight on c2W".
func pieces(pos rules.Position, cells []rules.Cell, name func(rules.Cell) string) string {
	if len(cells) == 0 {
		return "a piece"
	}
	var parts []string
	for _, c := range cells {
		pc, _ := pos.CellPiece(c)
		parts = append(parts, fmt.Sprintf("the %s on %s", kindNames[pc.Kind()], name(c)))
	}
	return strings.Join(parts, " and ")
}

// level is the level part of a cell's name: "N", "QL2", "QL3u"; for
// Millennium the leading digit.
func level(pos rules.Position, c rules.Cell) string {
	names := pos.System().Cells()
	if int(c) >= len(names) || len(names[c]) < 3 {
		return ""
	}
	n := names[c]
	if n[0] >= '1' && n[0] <= '9' {
		return n[:1]
	}
	return n[2:]
}

// isBoardCell reports whether c is the presence cell of an attack-board
// pin (st3d) or a platform position (First Contact).
func isBoardCell(pos rules.Position, c rules.Cell) bool {
	switch pos.(type) {
	case *st3d.Position:
		return int(c) >= st3d.NumSquares && int(c) < st3d.NumCells
	case *firstcontact.Position:
		names := pos.System().Cells()
		if int(c) >= len(names) {
			return false
		}
		_, err := firstcontact.ParseSlot(names[c])
		return err == nil
	}
	return false
}

// squareExists reports whether cell c is a square standing in pos, and
// when not, the rule and why.
func squareExists(pos rules.Position, c rules.Cell) (ok bool, rule, why string) {
	switch p := pos.(type) {
	case *st3d.Position:
		if int(c) >= st3d.NumSquares {
			return false, "D1", "it is a pin, not a square"
		}
		s := st3d.Square(c)
		if !p.Exists(s) {
			return false, "D1", fmt.Sprintf("no attack board stands on %s", s.Pin())
		}
	case *firstcontact.Position:
		if !p.CellExists(c) {
			names := pos.System().Cells()
			if sq, err := firstcontact.ParseSquare(names[c]); err == nil && sq.Slot() != firstcontact.NoSlot {
				return false, "F1", fmt.Sprintf("no platform stands at %s", sq.Slot())
			}
			return false, "F1", "it is not a square of the set"
		}
	}
	return true, "", ""
}

// explainBoard explains an attack-board or platform move from pin cell
// from to pin cell to.
func explainBoard(pos rules.Position, from, to rules.Cell, name func(rules.Cell) string, e *Explanation,
	say func(Reason, string, string, ...any) Explanation) Explanation {
	if p, ok := pos.(*st3d.Position); ok {
		if int(to) < st3d.NumSquares || int(to) >= st3d.NumCells {
			return say(BoardRule, "D13", "An attack board goes from pin to pin, and %s is no pin.", name(to))
		}
		q, o := st3d.Pin(int(from)-st3d.NumSquares), st3d.Pin(int(to)-st3d.NumSquares)
		if present, _ := p.HasBoard(q); present {
			for _, s := range q.Squares() {
				if p.PieceAt(s) != 0 {
					e.Cells.Add(st3d.SquareCell(s))
				}
			}
		}
		if broken := p.BoardMoveRules(q, o); len(broken) > 0 {
			return boardRules(e, pos.Turn(), q, o, broken)
		}
	}
	if pm, ok := pos.(pseudoMover); ok {
		for _, m := range pm.PseudoMoves(nil) {
			if in := pos.Info(m); in.From == from && in.To == to {
				e.Culprits = pm.KingAttackers(m)
				_, king := pos.InCheck()
				e.Cells.Add(king)
				rule := "D15"
				if _, fc := pos.(*firstcontact.Position); fc {
					rule = ""
				}
				return say(KingInCheck, rule, "Moving the board would leave your king on %s in check from %s.", name(king), pieces(pos, e.Culprits, name))
			}
		}
	}
	if _, ok := pos.(*firstcontact.Position); ok {
		return say(BoardRule, "F4", "The platform at %s may not go to %s: a platform moves holding exactly one of the mover's pawns, to an adjacent vacant corner of its level or the same corner above or below, and an empty one only inverts, not straight after it moved.", name(from), name(to))
	}
	return say(Unknown, "", "The board on %s may not go to %s.", name(from), name(to))
}

// boardRules explains an attack-board move that breaks the board rules:
// every rule it breaks, the most telling first. A board that is not the
// mover's (D12) makes it the other side's move (OtherSide), as for a
// piece.
func boardRules(e *Explanation, turn rules.Color, q, o st3d.Pin, broken []st3d.BrokenRule) Explanation {
	e.Reason, e.Rule = BoardRule, broken[0].Rule
	var b strings.Builder
	if broken[0].Rule == "D12" {
		e.Reason = OtherSide
		fmt.Fprintf(&b, "It is %s's move: ", turn)
	} else {
		fmt.Fprintf(&b, "The board on %s may not go to %s: ", q, o)
	}
	for i, r := range broken {
		e.Rules = append(e.Rules, r.Rule)
		why := r.Why
		if i > 0 {
			b.WriteString("; and ")
			// "the board on QL1 holds ..." once named: "it holds ...".
			why = strings.Replace(why, "the board on "+q.String()+" ", "it ", 1)
		} else if e.Reason != OtherSide {
			why = strings.Replace(why, "the board on "+q.String()+" ", "it ", 1)
		}
		fmt.Fprintf(&b, "%s (%s)", why, r.Rule)
	}
	b.WriteString(".")
	e.Text = b.String()
	return *e
}
