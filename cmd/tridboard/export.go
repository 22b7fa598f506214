package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
)

func init() {
	register("export", "write a game of the state directory as a record that replay reads", runExport)
}

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", "[--state-dir DIR] [--list] [GAME-ID]",
		"Writes a game as a text record (tags and the moves in Meder's notation):\n"+
			"the current game, or the game named. --list lists the games kept.", stdout, stderr)
	stateDir := fs.String("state-dir", config.DefaultStateDir(), "directory of the game journals")
	list := fs.Bool("list", false, "list the games of the state directory, oldest first")
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 1 || *list && fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: tridboard export [--state-dir DIR] [--list] [GAME-ID]")
		return exitUsage
	}
	if st, err := os.Stat(*stateDir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "tridboard export: state directory %s: no such directory (give --state-dir)\n", *stateDir)
		return exitFailure
	}
	if *list {
		ids, err := game.Games(*stateDir)
		if err != nil {
			fmt.Fprintf(stderr, "tridboard export: %v\n", err)
			return exitFailure
		}
		for _, id := range ids {
			fmt.Fprintln(stdout, id)
		}
		return exitOK
	}
	// Read-only: the daemon may be writing the journal (issue 23); an
	// export never cuts, repairs or locks it.
	opts := game.DefaultOpts()
	opts.ReadOnly = true
	var s *game.Session
	var err error
	if fs.NArg() == 1 {
		s, err = game.OpenGame(*stateDir, fs.Arg(0), &opts)
	} else {
		s, err = game.Open(*stateDir, &opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tridboard export: %v\n", err)
		return exitFailure
	}
	defer s.Close()
	if err := s.Export(stdout); err != nil {
		fmt.Fprintf(stderr, "tridboard export: %v\n", err)
		return exitFailure
	}
	return exitOK
}
