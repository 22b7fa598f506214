package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// typography maps the characters that records copied from web pages and
// books use to the ASCII ones the systems' notations are written in: the
// dashes (hyphen, non-breaking hyphen, figure dash, en and em dash,
// horizontal bar, minus sign, small and full-width hyphen-minus), the
// multiplication sign for a capture, the figurines of both colours, and
// invisible characters (no-break, zero-width and byte-order marks).
var typography = strings.NewReplacer(
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-",
	"\u2212", "-", "\ufe63", "-", "\uff0d", "-",
	"×", "x",
	"♔", "K", "♕", "Q", "♖", "R", "♗", "B", "♘", "N",
	"♚", "K", "♛", "Q", "♜", "R", "♝", "B", "♞", "N",
	"\u00a0", "", "\u200b", "", "\u2060", "", "\ufeff", "",
)

// marks are the characters a move may end with that say nothing about the
// move itself: check and mate signs, and the assessments !, ?, !!, ??, !?,
// ?! (also as the single characters ‼ ⁇ ⁉ ⁈).
const marks = "+#!?‼⁇⁉⁈†‡"

// Typography replaces the typographic characters of a pasted record (see
// CleanMove) by ASCII ones: any dash by "-", "×" by "x", figurines by
// piece letters; invisible spaces go.
func Typography(s string) string {
	for {
		// Every replacement shortens s; dropping an invisible character
		// can join bytes of a broken encoding into another, so repeat.
		t := typography.Replace(s)
		if t == s {
			return s
		}
		s = t
	}
}

// CleanMove reduces a move as people write it to the form every system's
// reader matches: typography as in Typography; check and mate marks,
// assessments (!, ?, !?, ...), numeric annotation glyphs ($1), "e.p." and
// a draw offer "(=)" dropped from the end, in any order; castling written
// 0-0 or O-O (0-0-0, O-O-O), with any dash, as "0-0" or "0-0-0". What is
// left may be empty, when s was marks only.
func CleanMove(s string) string {
	s = Typography(s)
	for {
		t := strings.TrimRightFunc(s, unicode.IsSpace)
		t = strings.TrimRight(t, marks)
		t = trimNAG(t)
		for _, suf := range []string{"e.p.", "e.p", "ep.", "(=)"} {
			t = strings.TrimSuffix(t, suf)
		}
		if t == s {
			break
		}
		s = t
	}
	s = strings.TrimSpace(s)
	if isCastling(s) {
		if len(s) == 3 {
			return "0-0"
		}
		return "0-0-0"
	}
	return s
}

// Reader is what ReadMove needs of a system to read a move: how it finds
// the legal moves a clean move may name, how it writes a move in long
// form, and (when not nil) how it settles several candidates by a stated
// convention.
type Reader struct {
	// System names the rules in errors ("st3d: move ...").
	System string
	// Match finds the legal moves that in, a move as CleanMove leaves it,
	// may name; its error says why in cannot be read.
	Match func(in string) ([]Move, error)
	// Long writes a move in long form, to list ambiguous candidates.
	Long func(Move) string
	// Settle, when not nil, picks one of several candidates by a
	// convention and says which in the note; ok is false when it cannot.
	Settle func(cands []Move) (m Move, note string, ok bool)
}

// ReadMove reads the move s, in long form or short notation, with r: s is
// reduced with CleanMove, and exactly one legal move must match it. The
// error names s and says whether it is empty, unreadable, not legal or
// ambiguous (listing the candidates in long form).
func (r Reader) ReadMove(s string) (m Move, note string, err error) {
	in := CleanMove(s)
	if in == "" {
		return 0, "", fmt.Errorf("%s: empty move", r.System)
	}
	cands, err := r.Match(in)
	if err != nil {
		return 0, "", fmt.Errorf("%s: move %q: %v", r.System, s, err)
	}
	switch len(cands) {
	case 0:
		return 0, "", fmt.Errorf("%s: move %q: not legal in this position", r.System, s)
	case 1:
		return cands[0], "", nil
	}
	if r.Settle != nil {
		if m, note, ok := r.Settle(cands); ok {
			return m, note, nil
		}
	}
	names := make([]string, len(cands))
	for i, m := range cands {
		names[i] = r.Long(m)
	}
	return 0, "", fmt.Errorf("%s: move %q: ambiguous: %s", r.System, s, strings.Join(names, ", "))
}

// trimNAG drops a numeric annotation glyph ("$1", "$146") ending s.
func trimNAG(s string) string {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i < len(s) && i > 0 && s[i-1] == '$' {
		return s[:i-1]
	}
	return s
}

// isCastling reports whether s is 0-0, O-O, 0-0-0 or O-O-O (letters o in
// either case, digits 0).
func isCastling(s string) bool {
	if len(s) != 3 && len(s) != 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i%2 == 1 && c != '-' || i%2 == 0 && c != '0' && c != 'O' && c != 'o' {
			return false
		}
	}
	return true
}
