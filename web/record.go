package web

import (
	"fmt"
	"io"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules/record"
)

// RecordOf is what board id's game record is made of, from what the MQTT
// payloads said: the tags, the moves, the result and termination, the
// time control and each move's clock. It is written by the export's
// writer (game.RecordOf), so /boards/<id>/game.pgn and `tridboard export`
// are one format.
func (h *Hub) RecordOf(id string) (game.RecordOf, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil || b.sys == nil {
		return game.RecordOf{}, fmt.Errorf("web: no game on board %q", id)
	}
	t := b.tags
	r := game.RecordOf{
		Tags:   game.Tags{Event: t["Event"], Site: t["Site"], Date: t["Date"], Round: t["Round"], White: t["White"], Black: t["Black"]},
		System: b.sys, Start: b.g.Start(), Result: b.result, Reason: game.Reason(b.reason),
	}
	for _, p := range b.plies {
		r.Moves = append(r.Moves, p.Short)
	}
	if b.clock != nil && b.clock.Control != "" && b.clock.Control != "-" {
		r.Control = b.clock.Control
		r.Clocks = make([]time.Duration, len(b.plies))
		for i, p := range b.plies {
			r.Clocks[i] = -1
			if p.ClkMS != nil {
				r.Clocks[i] = time.Duration(*p.ClkMS) * time.Millisecond
			}
		}
	}
	return r, nil
}

// Record is board id's game record (RecordOf).
func (h *Hub) Record(id string) (*record.Record, error) {
	r, err := h.RecordOf(id)
	if err != nil {
		return nil, err
	}
	return r.Record(), nil
}

// WriteRecord writes board id's game record, its moves numbered from the
// start position's move number.
func (h *Hub) WriteRecord(w io.Writer, id string) error {
	r, err := h.RecordOf(id)
	if err != nil {
		return err
	}
	return r.Write(w)
}
