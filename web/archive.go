package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
)

// Archive is where a board's past games are kept: the daemon's journal
// (every game of its state directory). Without one the server lists the
// games the hub saw end since it started.
type Archive interface {
	// Games lists board's games, oldest first.
	Games(board string) ([]string, error)
	// Record is what game's record is made of.
	Record(board, game string) (game.RecordOf, error)
}

// ArchivedGame is one game of a board's archive, as the page lists it.
type ArchivedGame struct {
	Game        string `json:"game"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Event       string `json:"event,omitempty"`
	Round       string `json:"round,omitempty"`
	Date        string `json:"date,omitempty"`
	Variant     string `json:"variant"`
	Result      string `json:"result"`
	Termination string `json:"termination,omitempty"`
	Plies       int    `json:"plies"`
	// Live marks the game the board plays now.
	Live bool `json:"live,omitempty"`
}

func archived(id string, r game.RecordOf) ArchivedGame {
	return ArchivedGame{Game: id, White: or(r.Tags.White, "?"), Black: or(r.Tags.Black, "?"), Event: r.Tags.Event, Round: r.Tags.Round,
		Date: r.Tags.Date, Variant: r.System.Name(), Result: or(r.Result, "*"), Termination: string(r.Reason), Plies: len(r.Moves)}
}

// maxPast bounds the past games the hub keeps of a board without an
// archive.
const maxPast = 50

// remember keeps the game the board played before it changed to another,
// for the archive without a journal. b's lock (the hub's) is held.
func (b *board) remember() {
	if b.sys == nil || b.game == "" || len(b.plies) == 0 {
		return
	}
	r := game.RecordOf{Tags: tagsOf(b.tags), System: b.sys, Start: b.g.Start(), Result: b.result, Reason: game.Reason(b.reason)}
	for _, p := range b.plies {
		r.Moves = append(r.Moves, p.Short)
	}
	for i, p := range b.past {
		if p.id == b.game {
			b.past[i].rec = r
			return
		}
	}
	b.past = append(b.past, pastGame{id: b.game, rec: r})
	if len(b.past) > maxPast {
		b.past = b.past[1:]
	}
}

// pastGame is a game a board played before, kept by the hub.
type pastGame struct {
	id  string
	rec game.RecordOf
}

// hubArchive is the archive of the games the hub saw.
type hubArchive struct{ h *Hub }

func (a hubArchive) Games(board string) ([]string, error) {
	a.h.mu.Lock()
	defer a.h.mu.Unlock()
	b := a.h.boards[board]
	if b == nil {
		return nil, fmt.Errorf("web: no board %q", board)
	}
	var ids []string
	for _, p := range b.past {
		ids = append(ids, p.id)
	}
	return ids, nil
}

func (a hubArchive) Record(board, id string) (game.RecordOf, error) {
	a.h.mu.Lock()
	defer a.h.mu.Unlock()
	if b := a.h.boards[board]; b != nil {
		for _, p := range b.past {
			if p.id == id {
				return p.rec, nil
			}
		}
	}
	return game.RecordOf{}, fmt.Errorf("web: board %q: no game %q", board, id)
}

func (s *Server) archive() Archive {
	if s.opts.Archive != nil {
		return s.opts.Archive
	}
	return hubArchive{s.hub}
}

// record is one game of board id: the live one from the hub, another from
// the archive.
func (s *Server) record(id, g string) (game.RecordOf, error) {
	if v, ok := s.hub.Summary(id); ok && v.Game == g {
		return s.hub.RecordOf(id)
	}
	return s.archive().Record(id, g)
}

// apiGames lists board id's games, oldest first, the live one marked.
func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	sum, known := s.hub.Summary(id)
	ids, err := s.archive().Games(id)
	if err != nil && !known {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	out := []ArchivedGame{}
	seenLive := false
	for _, g := range ids {
		rec, err := s.record(id, g)
		if err != nil {
			continue // a journal that cannot be read is left out
		}
		a := archived(g, rec)
		if known && g == sum.Game {
			a.Live, seenLive = true, true
		}
		out = append(out, a)
	}
	if known && !seenLive && sum.Game != "" {
		if rec, err := s.hub.RecordOf(id); err == nil {
			a := archived(sum.Game, rec)
			a.Live = true
			out = append(out, a)
		}
	}
	writeJSON(w, out)
}

// gameFile serves one game of the archive: <game>.pgn its record.
func (s *Server) gameFile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	if !ok {
		http.Error(w, "web: want /boards/<id>/games/<game>.pgn", http.StatusNotFound)
		return
	}
	rec, err := s.record(id, g)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Content-Disposition", "inline; filename="+strconv.Quote(g+".pgn"))
	rec.Write(w)
}

// apiGame is one game of the archive as the page replays it: a full
// BoardView of its record.
func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	id, g := r.PathValue("id"), r.PathValue("game")
	rec, err := s.record(id, g)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	v, err := replayView(id, g, rec, s.hub.opts.MaxPlies)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	writeJSON(w, v)
}

// replayView draws a record as a page draws a board: every move with the
// position after it.
func replayView(id, g string, rec game.RecordOf, max int) (*BoardView, error) {
	b := &board{id: id, max: max, game: g, sys: rec.System, status: protocol.BoardInSync}
	p := rec.Start
	var longs []string
	for i, mv := range rec.Moves {
		m, _, err := p.ParseMove(mv)
		if err != nil {
			return nil, fmt.Errorf("web: game %s: move %d %q: %w", g, i+1, mv, err)
		}
		longs = append(longs, p.Long(m))
		p = p.Play(m)
	}
	var clks []int64
	if len(rec.Clocks) == len(rec.Moves) {
		for _, d := range rec.Clocks {
			clks = append(clks, d.Milliseconds())
		}
	}
	b.reset(rec.Start, longs, clks, len(longs))
	b.tags = tagMap(rec.Tags)
	b.result, b.reason = or(rec.Result, "*"), string(rec.Reason)
	v := b.view(0, 0)
	return v, nil
}
