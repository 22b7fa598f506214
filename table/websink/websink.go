// Package websink feeds a table to the web displays (package web): the same
// payloads the MQTT sink publishes go to a web.Hub in the same process, so
// the daemon's own pages need no broker round trip.
package websink

import (
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/mqttsink"
	"github.com/tridboard/tridboard/web"
)

// Sink is a table.Sink feeding a hub.
type Sink struct {
	hub   *web.Hub
	board string
}

// New returns a sink feeding hub with the board called board.
func New(hub *web.Hub, board string) *Sink { return &Sink{hub: hub, board: board} }

// Handle passes e on as the MQTT payloads would carry it.
func (s *Sink) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	switch e.Kind {
	case table.Started:
		s.hub.Availability(s.board, true)
	case table.Moved, table.Corrected:
		s.hub.Move(s.board, mqtt.Move(*e.Move))
	}
	if ev, ok := mqttsink.EventOf(e); ok {
		s.hub.Event(s.board, ev)
	}
	s.hub.State(s.board, mqttsink.State(e.Snap))
}

// Offline says the board is gone (the daemon stops).
func (s *Sink) Offline() { s.hub.Availability(s.board, false) }
