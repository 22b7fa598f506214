package rules

import "math/bits"

// CellSet is a set of cells (at most 256), such as the closed cells of a
// board. The zero value is the empty set. It is a value type: compare with ==.
type CellSet [4]uint64

// Has reports whether c is in s.
func (s CellSet) Has(c Cell) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Add puts c into s.
func (s *CellSet) Add(c Cell) { s[c>>6] |= 1 << (c & 63) }

// Remove takes c out of s.
func (s *CellSet) Remove(c Cell) { s[c>>6] &^= 1 << (c & 63) }

// Set puts c into s when on is true and takes it out otherwise.
func (s *CellSet) Set(c Cell, on bool) {
	if on {
		s.Add(c)
	} else {
		s.Remove(c)
	}
}

// Union is s ∪ t.
func (s CellSet) Union(t CellSet) CellSet {
	return CellSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}

// Intersect is s ∩ t.
func (s CellSet) Intersect(t CellSet) CellSet {
	return CellSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

// Minus is s \ t.
func (s CellSet) Minus(t CellSet) CellSet {
	return CellSet{s[0] &^ t[0], s[1] &^ t[1], s[2] &^ t[2], s[3] &^ t[3]}
}

// Xor is the symmetric difference: the cells in exactly one of s and t.
func (s CellSet) Xor(t CellSet) CellSet {
	return CellSet{s[0] ^ t[0], s[1] ^ t[1], s[2] ^ t[2], s[3] ^ t[3]}
}

// Empty reports whether s has no cell.
func (s CellSet) Empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// Len is the number of cells in s.
func (s CellSet) Len() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// Cells appends the cells of s to buf in ascending order and returns it.
func (s CellSet) Cells(buf []Cell) []Cell {
	for w, word := range s {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			buf = append(buf, Cell(w*64+b))
			word &= word - 1
		}
	}
	return buf
}

// Names lists the names of the cells of s under the given cell list.
func (s CellSet) Names(cells []string) []string {
	var out []string
	for _, c := range s.Cells(nil) {
		if int(c) < len(cells) {
			out = append(out, cells[c])
		}
	}
	return out
}

// CellSetOf builds a set from cells.
func CellSetOf(cells ...Cell) CellSet {
	var s CellSet
	for _, c := range cells {
		s.Add(c)
	}
	return s
}
