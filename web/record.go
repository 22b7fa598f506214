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
	r := game.RecordOf{Tags: tagsOf(b.tags), System: b.sys, Start: b.g.Start(), Result: b.result, Reason: game.Reason(b.reason)}
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

// tagsOf reads a game's tags from the state's tags (PGN's names).
func tagsOf(m map[string]string) game.Tags {
	return game.Tags{Event: m["Event"], Site: m["Site"], Date: m["Date"], Round: m["Round"], Board: m["Board"], White: m["White"],
		Black: m["Black"], WhiteElo: m["WhiteElo"], BlackElo: m["BlackElo"], WhiteTitle: m["WhiteTitle"], BlackTitle: m["BlackTitle"],
		WhiteFideID: m["WhiteFideId"], BlackFideID: m["BlackFideId"]}
}

// tagMap is the state's tags of a game's (PGN's names), those set.
func tagMap(t game.Tags) map[string]string {
	m := map[string]string{}
	for _, x := range append([]game.Tag{{Name: "Event", Value: t.Event}, {Name: "Site", Value: t.Site}, {Name: "Date", Value: t.Date},
		{Name: "Round", Value: t.Round}, {Name: "Board", Value: t.Board}, {Name: "White", Value: t.White}, {Name: "Black", Value: t.Black}},
		t.Players()...) {
		if x.Value != "" {
			m[x.Name] = x.Value
		}
	}
	return m
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
