// Package engine searches the positions of every rule system tridboard
// plays (rules.Position): iterative-deepening principal-variation search
// with a transposition table, check extension, late-move reductions and a
// quiescence search on captures and promotions; moves are ordered by the
// table's move, MVV-LVA, killers and history. The evaluation knows the 3D
// sets: material (pieces in reserve too, rules.Reserver), centrality and
// pawn advance on each system's own geometry (from the registry,
// rules/systems), mobility, king safety, and where a position tells it
// (Star Trek 3D's BoardControl) who controls the attack boards and can
// move them. It imports no concrete system.
//
// A search is bounded by depth, nodes and time (the clock is injected, so
// tests run in simulated time); it never returns an illegal move, and it
// returns one whenever one exists, even with a budget of one node. Levels
// (Levels, LevelMove) go from a random mover that only avoids an
// immediate mate to the strongest search a Raspberry Pi affords.
//
// A position that is a rules.Maker (every system's own position type) is
// searched in place, one value per ply, without allocating per node; any
// other rules.Position is searched through Play.
package engine
