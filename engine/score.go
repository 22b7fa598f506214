package engine

import "fmt"

// Score is a search score in centipawns from the side to move's view, or
// a mate: Mate-n when the side to move mates in n plies, -(Mate-n) when it
// is mated in n plies.
type Score int32

const (
	// Mate is the score of mating at once.
	Mate Score = 32000
	// Inf bounds every score.
	Inf Score = Mate + 1
	// mateBound separates mate scores from ordinary ones.
	mateBound = Mate - 2*maxPly
)

// IsMate reports whether s is a mate score (for either side).
func (s Score) IsMate() bool { return s > mateBound || s < -mateBound }

// MateIn is the number of moves to mate: positive when the side to move
// mates, negative when it is mated, 0 when s is no mate score.
func (s Score) MateIn() int {
	switch {
	case s > mateBound:
		return int(Mate-s+1) / 2
	case s < -mateBound:
		return -int(Mate+s) / 2
	}
	return 0
}

// String is the score as analyse prints it: "cp 35", "mate 2", "mate -1".
func (s Score) String() string {
	if s.IsMate() {
		return fmt.Sprintf("mate %d", s.MateIn())
	}
	return fmt.Sprintf("cp %d", int32(s))
}
