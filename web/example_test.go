package web_test

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/web"
)

// The daemon (or `tridboard view`) feeds the hub what it publishes; the
// hub replays the game with the rules.
func ExampleHub() {
	hub := web.NewHub(web.DefaultOpts())
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	hub.Availability("hall-1", true)
	hub.State("hall-1", protocol.State{Game: "g1", Variant: "st3d", Board: protocol.Board{Status: protocol.BoardInSync}, Result: "*", Time: at,
		Tags: map[string]string{"White": "Kirk", "Black": "Spock"}})
	hub.Move("hall-1", protocol.Move{Seq: 1, Game: "g1", Move: "b2W-b4N", Time: at})
	hub.Move("hall-1", protocol.Move{Seq: 2, Game: "g1", Move: "b7B-b5N", Time: at})
	hub.Move("hall-1", protocol.Move{Seq: 2, Game: "g1", Move: "b7B-b5N", Time: at}) // a duplicate
	v, _ := hub.View("hall-1")
	for _, m := range v.Moves {
		fmt.Println(m.Seq, m.Num, m.Short, m.From, m.To)
	}
	fmt.Println(v.Tags["White"], "-", v.Tags["Black"], v.Turn, "to move")
	// Output:
	// 1 1. b4N b2W b4N
	// 2 1... b5N b7B b5N
	// Kirk - Spock white to move
}
