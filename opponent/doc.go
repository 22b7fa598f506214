// Package opponent plays one side of a table's game from elsewhere: the
// players of another set on the same broker (remote play), or an engine. The
// opponent's moves reach the table as moves made elsewhere (table.PlayMove),
// which its LEDs show until the players make them on the set; the set's own
// moves are published as usual, and the other set picks them up.
//
// Who the opponent is belongs to the game: it is kept in the game's tags
// (game.Tags.Opponent, see game.Opponent), so a set that restarts goes on with the
// same opponent. A Manager, a sink of the table, starts and stops the
// opponent as games begin and end.
package opponent
