package rules

// Maker is a Position that a search can play in place: it makes a move on
// itself and copies another position of its own system into itself, so a
// search keeps one value per ply instead of allocating a position per
// node. Each system's Position is one; the engine finds it with a type
// assertion and plays any other Position through Play.
type Maker interface {
	Position
	// Make plays m in place (m must be legal here).
	Make(m Move)
	// Clone is a new copy of the position.
	Clone() Maker
	// CopyFrom makes the position a copy of p, a position of the same
	// system got from Clone.
	CopyFrom(p Maker)
}
