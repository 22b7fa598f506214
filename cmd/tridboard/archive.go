package main

import (
	"fmt"

	"github.com/tridboard/tridboard/game"
)

// journalArchive is the pages' archive of the daemon's board: every game
// of its state directory (web.Archive). The game being played is served
// from the hub, never opened here.
type journalArchive struct{ dir, board string }

func (a journalArchive) Games(board string) ([]string, error) {
	if board != a.board {
		return nil, fmt.Errorf("archive: no board %q here (this is %q)", board, a.board)
	}
	return game.Games(a.dir)
}

func (a journalArchive) Record(board, id string) (game.RecordOf, error) {
	if board != a.board {
		return game.RecordOf{}, fmt.Errorf("archive: no board %q here (this is %q)", board, a.board)
	}
	// Read-only, as the export: the daemon is writing the current game's
	// journal, which a reader must never cut, repair or lock.
	opts := game.DefaultOpts()
	opts.ReadOnly = true
	s, err := game.OpenGame(a.dir, id, &opts)
	if err != nil {
		return game.RecordOf{}, fmt.Errorf("archive: %w", err)
	}
	defer s.Close()
	return s.RecordOf(), nil
}
