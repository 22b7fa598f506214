// Package st3d plays Star Trek 3D chess under Jens Meder's tournament
// rules, as docs/rules.md reads them (decisions D1-D18), with Meder's
// variant options and 3D Chess960 on top; it is the system the set is
// built for and the one every other system's package is shaped after.
//
// # Main types
//
//   - System: the tournament rules as a rules.System, named "st3d".
//     NewSystem(Options) makes the same rules with variant options (board
//     options V.A1-V.A5, setups V.P1-V.P6), named "st3d+V.A1,..."; the
//     plain System stays exactly the tournament rules.
//   - Position: a position, a value type whose pointer is a
//     rules.Position: pieces on squares, attack boards on pins with their
//     markings, side to move, castling, en-passant and double-step rights
//     and the clocks. Parse and String read and write the position string
//     (docs/rules.md, "Position string"); StartPosition and StartString are
//     the start.
//   - Square and Pin: the 96 squares that can exist (the three main
//     boards W, N, B and four squares on each of the twelve pins QL1-QL6,
//     KL1-KL6) and the pins themselves; SquareCell and PinCell map them to
//     the 108 sensing cells of CellNames (the set's hardware.md order).
//   - Options and Setup: the variant options of a game (ParseOptions reads
//     "V.A1,V.P5:409").
//
// # Inside
//
// geometry.go numbers the squares by column (the map seen from above) and
// level; tables.go precomputes rays, leaps and attack masks by column;
// movegen.go generates pseudo-legal moves (pieces and board moves),
// make.go makes and unmakes them in place and keeps the legal ones,
// count.go counts legal moves without listing
// them (perft's last ply), notation.go writes and reads the long form
// ("b2W-b4N", "QL1-QL3") and Meder's short notation. variants_*.go hold
// the moves and setups of the options: tournament positions never reach
// them (one flag is tested once per node). explain.go and facts.go answer
// package explain and the engine; hash.go is the engine's Zobrist key.
//
// Beyond rules.Position, *Position offers Perft (through rules.Walk),
// Extends, Hash, MoveFacts, PseudoMoves, KingAttackers, Blocker and
// BoardMoveRules for the layers that look for them.
package st3d
