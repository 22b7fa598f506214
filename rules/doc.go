// Package rules is the ground floor of tridboard: what a rule system for a
// 3D chess set is, independent of any one system. It imports nothing of
// the project's, and every layer above it (recognition, the game journal,
// the table, LEDs, MQTT, the web pages, the engine) works through its
// interfaces, so the daemon plays every system the same way.
//
// # Main types
//
//   - System: a set of rules: its name ("st3d", "millennium",
//     "first-contact"), its sensing cells by name, its start position and
//     its position-string reader.
//   - Position: one position under a System, a value: Play returns a new
//     Position. It lists and plays legal Moves, writes them in long form
//     and short notation and reads either back (ParseMove), says which
//     cells a move touches (Info, a MoveInfo) and which cells are occupied
//     (Occupancy, a CellSet), and tells check and the game's Status.
//   - Cell, CellSet: the sensing cells (squares, and sockets that sense
//     whether a board stands on them) as indices into System.Cells, the
//     vocabulary recognition and LEDs share with the rules.
//   - Move: a legal move, encoded by the System that generated it and
//     meaningful only to the Position it came from.
//   - Color, Piece, Status, Result: sides, pieces (one encoding for all
//     systems), the state of a position and the outcome of a game.
//   - Game: a game as a list of moves and positions, with repetition, the
//     fifty-move rule and take-back.
//
// # How the systems plug in
//
// A system lives in its own package below rules (rules/st3d,
// rules/millennium, rules/firstcontact) with a Position type whose pointer
// is a Position. The package publishes its System with NewSystem from its
// name, cell list, start position and position-string reader (SystemOf),
// reads the fields every position string writes the same way with the
// helpers of posfields.go (ParseString, SplitFields, ParsePieces,
// ParseCastling, ParseClocks and their writers), and counts its move tree
// with a Walk over its own move generator, make and unmake, which Perft
// and Divide use. rules/systems is the registry: each system registers
// there once, with its geometry (a Geometry: where each cell stands, for
// the pages, the sets and the engine) and its capabilities, and is found
// by its name as records, journals and command lines write it; no package
// above the rules but the registry and the kits (package sets) imports a
// system. rules/explain says why a move is illegal; rules/record reads
// and writes game records; rules/rulestest holds the checks every
// system's tests share.
//
// Beyond the Position interface a system's Position may offer what some
// layers look for with a type assertion: Extends (recognition waits longer
// for a move that could still go on), Maker, Hash and MoveFacts (the
// engine searches in place), Reserver (pieces still to come in),
// PseudoMoves, KingAttackers and Blocker (explaining an illegal move), and
// Perft.
//
// docs/rules.md states the rules of every system as the project reads
// them, with the numbered decisions the tests cite.
package rules
