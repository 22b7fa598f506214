package rules

// Geometry is where a system's cells stand on its set: for drawing them
// (in 3D and in a flat view of one panel per level), for sensing them and
// for judging a position (how central a square is, how far a pawn has
// come). A system's registry entry (rules/systems) gives it.
type Geometry struct {
	// Panels are the flat view's panels, one per level.
	Panels []Panel
	// Cells are the system's cells in its cell order: Cells[c] is Cell c.
	Cells []Geo
	// Step is the height drawn for one unit of Geo.Z (1 when 0): st3d's
	// main boards stand 2 units apart, Millennium's levels 2 units drawn
	// 1.5 high so that its 8x8 levels do not crowd.
	Step float64
}

// Panel is one level of the flat view: a grid of W x H squares.
type Panel struct {
	Name string
	W, H int
}

// Geo is where one cell stands.
type Geo struct {
	// Name is the cell's name, as System.Cells names it.
	Name string
	// X and Y are its place on the map seen from above: X the file (0 the
	// leftmost), Y the rank (0 White's side); a socket's is the centre of
	// the board it carries.
	X, Y float64
	// Z is its height in steps: st3d's main boards 0, 2, 4 and its attack
	// boards 1, 3, 5; Millennium's levels 0, 2, 4.
	Z int
	// File and Rank label a square's column and row ("a", "1"); "" for a
	// socket.
	File, Rank string
	// Panel, PX and PY place the cell in the flat view (PY 0 is the top
	// row, Black's side); PX is -1 for a socket.
	Panel, PX, PY int
	// Socket is the name of the presence cell whose board (attack board,
	// platform) carries this square: the square exists only while that
	// cell is closed. "" for a fixed square.
	Socket string
	// IsSocket marks a presence cell (a pin, a platform socket).
	IsSocket bool
	// Dark is a dark square.
	Dark bool
	// Inverted marks a square or socket of an inverted platform (First
	// Contact).
	Inverted bool
	// Words say the cell to a listener ("b1 White", "a0 attack board
	// QL1", "a1 level 2", "platform KL2 inverted"); "" says its name.
	Words string
}
