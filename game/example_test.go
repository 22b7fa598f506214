package game_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// The daemon's wiring: resume (or start) the game, enqueue what the journal
// holds again, then publish each move after Play returns.
func Example() {
	stateDir, err := os.MkdirTemp("", "tridboard")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(stateDir)
	enqueue := func(m protocol.Move) { fmt.Println("enqueue", m.Seq, m.Move, m.SAN) } // client.Enqueue

	s, err := game.Open(stateDir, nil)
	if errors.Is(err, game.ErrNoGame) {
		s, err = game.New(stateDir, st3d.System, "", game.Tags{Event: "Example"}, nil)
	}
	if err != nil {
		log.Fatal(err)
	}
	if d := s.Recovered(); d != nil {
		log.Print(d) // a torn tail was cut off: warn, and go on
	}
	for _, m := range s.Published() {
		enqueue(protocol.Move(m)) // no-ops for what the outbox already knows
	}

	// A recognized move (rules.Move from the recognizer), or a command.
	pos := s.Position()
	m, _, _ := pos.ParseMove("Nc3W")
	mv, err := s.Play(m)
	if err != nil {
		log.Fatal(err)
	}
	enqueue(protocol.Move(mv)) // only now: the journal holds it

	if err := s.Resign(rules.Black); err != nil {
		log.Fatal(err)
	}
	r, why := s.Result()
	fmt.Println(r, why)

	var b strings.Builder
	if err := s.Export(&b); err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.String()[strings.Index(b.String(), "\n\n")+2:])
	s.Close()
	// Output:
	// enqueue 1 d1W-c3W Nc3W
	// 1-0 resignation
	// 1. Nc3W 1-0
}
