// Package websink feeds a table to the web displays (package web) in the
// daemon's own process: each change goes to a web.Hub as a web.Snapshot,
// the protocol's payloads typed (protocol.StateOf, protocol.EventOf) with
// the game's system and start position and the lifted piece's targets as
// the set's LEDs show them (ledsink.View), so the pages need no broker
// round trip and show what the set shows.
package websink

import (
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/targets"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/ledsink"
	"github.com/tridboard/tridboard/web"
)

// Sink is a table.Sink feeding a hub.
type Sink struct {
	hub   *web.Hub
	board string
	view  leds.View
	buf   []rules.Move
}

// New returns a sink feeding hub with the board called board.
func New(hub *web.Hub, board string) *Sink { return &Sink{hub: hub, board: board} }

// Handle hands the hub the table after e.
func (s *Sink) Handle(e table.Event) {
	snap := e.Snap
	if snap == nil {
		return
	}
	if e.Kind == table.Started {
		s.hub.Availability(s.board, true)
	}
	u := web.Snapshot{State: protocol.StateOf(snap), System: snap.System, Start: snap.Start}
	if (e.Kind == table.Moved || e.Kind == table.Corrected) && e.Move != nil {
		m := protocol.Move(*e.Move)
		u.Move = &m
	}
	if ev, ok := protocol.EventOf(e); ok {
		u.Event = &ev
	}
	// The targets as the LEDs show them: none under the teacher's lock or
	// for a side without assistance. The pages show them even where the
	// set's own LEDs are configured without hints (leds.hints: false).
	ledsink.View(&s.view, snap, false, &s.buf)
	var set targets.Set
	if !s.view.NoTargets {
		set = targets.Set{Targets: s.view.Targets, Captures: s.view.Captures, Pins: s.view.Pins}
	}
	u.Targets = &set
	s.hub.Snapshot(s.board, u)
}

// Offline says the board is gone (the daemon stops).
func (s *Sink) Offline() { s.hub.Availability(s.board, false) }
