package rules

// Reserver is a position with pieces off the board still to come in: First
// Contact's reserve (pieces still to be introduced), a V.P6 game's pieces
// still to be placed. Displays draw them beside the board.
type Reserver interface {
	// Reserve is how many pieces of kind (Pawn ... King) side c has still
	// to bring in.
	Reserve(c Color, kind Piece) int
}
