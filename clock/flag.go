package clock

import "github.com/tridboard/tridboard/rules"

// CannotMate reports whether side cannot checkmate its opponent in pos by
// any series of legal moves (FIDE 6.9). It may answer false when unsure,
// never true when a mate is possible: a wrong false makes a draw a loss on
// time, a wrong true a loss a draw.
type CannotMate func(pos rules.Position, side rules.Color) bool

// FlagResult is the result of a game in pos when flagged's flag fell: a
// loss for flagged, unless its opponent cannot checkmate it by any series
// of legal moves (FIDE 6.9), then a draw. cannotMate nil is
// DefaultCannotMate. The termination is "time" either way.
func FlagResult(pos rules.Position, flagged rules.Color, cannotMate CannotMate) rules.Result {
	if cannotMate == nil {
		cannotMate = DefaultCannotMate
	}
	if cannotMate(pos, flagged.Other()) {
		return rules.Draw
	}
	if flagged == rules.White {
		return rules.BlackWins
	}
	return rules.WhiteWins
}

// reserver is a position with pieces off the set that may still enter it
// (First Contact's reserves).
type reserver interface {
	Reserve(c rules.Color, kind rules.Piece) int
}

// DefaultCannotMate is a conservative CannotMate over the rules interface.
// It answers true in exactly two cases:
//
//   - the rules call the position dead (Status is rules.DeadPosition): in
//     st3d and its variants K v K only (docs/rules.md D18: a lone bishop or
//     knight mates there, so a flag against it loses); in Millennium K v K,
//     K+B v K and K+N v K; in First Contact the kings alone with nothing in
//     reserve (check wins there);
//   - side has nothing but its king on the set (CellPiece over every cell)
//     and, where pieces can still enter the set (First Contact's reserve),
//     nothing left to bring in: a king alone never gives check, in any of
//     the systems, so it never mates.
//
// Everything else is a loss for the flagged side, rightly so in most cases:
// a king with one knight or one bishop against a king with anything more is
// NOT a draw under FIDE 6.9, since the flagged side's own pieces can block
// its king into a mate (in chess Ka8, Pa7 against Kc7, Nb6#), so this
// answers false there. It also answers false for rarer positions where no
// mate is possible (pawn chains locked so that no piece can pass, a lone
// bishop against pawns fixed on squares of the other colour, ...): those it
// turns from a draw into a loss, never the reverse. A table that knows more (a helpmate
// search) passes its own CannotMate.
func DefaultCannotMate(pos rules.Position, side rules.Color) bool {
	if pos.Status() == rules.DeadPosition {
		return true
	}
	if r, ok := pos.(reserver); ok {
		for k := rules.Pawn; k < rules.King; k++ {
			if r.Reserve(side, k) > 0 {
				return false
			}
		}
	}
	kings := 0
	for i := range pos.System().Cells() {
		pc, ok := pos.CellPiece(rules.Cell(i))
		if !ok || pc.Color() != side {
			continue
		}
		if pc.Kind() != rules.King {
			return false
		}
		kings++
	}
	return kings == 1
}
