package web

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// BroadcastGame is one game of the broadcast layout: its number in its
// round (the boards in natural order), its board, players, result.
type BroadcastGame struct {
	Game   int    `json:"game"`
	Board  string `json:"board"`
	White  string `json:"white"`
	Black  string `json:"black"`
	Result string `json:"result"`
	Live   bool   `json:"live"`
	PGN    string `json:"pgn"`
}

// BroadcastRound is one round of the broadcast layout.
type BroadcastRound struct {
	Round string          `json:"round"`
	Count int             `json:"count"`
	Live  int             `json:"live"`
	PGN   string          `json:"pgn"`
	Games []BroadcastGame `json:"games"`
}

// Broadcast is the broadcast layout's index.json: every round, its games.
type Broadcast struct {
	Rounds []BroadcastRound `json:"rounds"`
}

// broadcast lays the boards out as a relay polls them, as LiveChess writes
// them: the rounds by their Round tag in natural order (a board without
// one is in round 1), in each the games numbered from 1 in the natural
// order of the boards.
func (h *Hub) broadcast() Broadcast {
	var out Broadcast
	idx := map[string]int{}
	for _, s := range h.Summaries() {
		if s.Variant == "" {
			continue
		}
		r := roundOf(s.Tags["Round"])
		i, ok := idx[r]
		if !ok {
			i = len(out.Rounds)
			idx[r] = i
			out.Rounds = append(out.Rounds, BroadcastRound{Round: r, PGN: "round-" + r + "/games.pgn"})
		}
		rd := &out.Rounds[i]
		g := BroadcastGame{Game: len(rd.Games) + 1, Board: s.ID, White: or(s.Tags["White"], "?"), Black: or(s.Tags["Black"], "?"),
			Result: s.Result, Live: s.Result == "*"}
		g.PGN = "round-" + r + "/game-" + strconv.Itoa(g.Game) + ".pgn"
		rd.Games = append(rd.Games, g)
		rd.Count++
		if g.Live {
			rd.Live++
		}
	}
	sort.SliceStable(out.Rounds, func(i, j int) bool { return naturalLess(out.Rounds[i].Round, out.Rounds[j].Round) })
	return out
}

// roundOf is a Round tag as a path element: "1" when there is none, the
// characters a URL keeps as they are.
func roundOf(tag string) string {
	tag = strings.TrimSpace(tag)
	if tag == "" || tag == "?" || tag == "-" {
		return "1"
	}
	var b strings.Builder
	for _, c := range tag {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '_' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "1"
	}
	return b.String()
}

// writeGames writes the records of games, one after the other, as one PGN
// file holds several.
func (h *Hub) writeGames(w *bytes.Buffer, games []BroadcastGame) {
	for i, g := range games {
		if i > 0 {
			w.WriteByte('\n')
		}
		if err := h.WriteRecord(w, g.Board); err != nil {
			fmt.Fprintf(w, "; %s: %v\n", g.Board, err)
		}
	}
}

// broadcastFeed serves the broadcast layout: /broadcast/index.json,
// /broadcast/games.pgn (every game), /broadcast/round-N/games.pgn,
// /broadcast/round-N/game-M.pgn and /broadcast/round-N/index.json; and
// LiveChess Cloud's: /broadcast/tournament.json, round-N/index.json (its
// pairings) and round-N/game-M.json. Every file has an ETag and a
// Last-Modified, and a poll that has them gets 304 until it changes.
func (s *Server) broadcastFeed(w http.ResponseWriter, r *http.Request) {
	sums := s.hub.Summaries()
	bc := s.hub.broadcast()
	path := strings.TrimPrefix(r.URL.Path, "/broadcast/")
	const pgnType, jsonType = "application/x-chess-pgn; charset=utf-8", "application/json"
	var buf bytes.Buffer
	switch path {
	case "index.json":
		s.serveFeed(w, r, path, jsonType, jsonBody(bc))
		return
	case "tournament.json":
		s.serveFeed(w, r, path, jsonType, jsonBody(s.hub.lccTournament(bc, sums)))
		return
	case "games.pgn":
		for _, rd := range bc.Rounds {
			if buf.Len() > 0 {
				buf.WriteByte('\n')
			}
			s.hub.writeGames(&buf, rd.Games)
		}
		s.serveFeed(w, r, path, pgnType, buf.Bytes())
		return
	}
	dir, file, ok := strings.Cut(path, "/")
	round, isRound := strings.CutPrefix(dir, "round-")
	if ok && isRound {
		for i := range bc.Rounds {
			rd := &bc.Rounds[i]
			if rd.Round != round {
				continue
			}
			switch {
			case file == "index.json":
				tags := map[string]map[string]string{}
				for _, sm := range sums {
					tags[sm.ID] = sm.Tags
				}
				s.serveFeed(w, r, path, jsonType, jsonBody(s.hub.lccRound(rd, tags)))
				return
			case file == "games.pgn":
				s.hub.writeGames(&buf, rd.Games)
				s.serveFeed(w, r, path, pgnType, buf.Bytes())
				return
			case strings.HasPrefix(file, "game-") && (strings.HasSuffix(file, ".pgn") || strings.HasSuffix(file, ".json")):
				num, ext, _ := strings.Cut(strings.TrimPrefix(file, "game-"), ".")
				n, err := strconv.Atoi(num)
				if err != nil || n < 1 || n > len(rd.Games) {
					break
				}
				if ext == "pgn" {
					s.hub.writeGames(&buf, rd.Games[n-1:n])
					s.serveFeed(w, r, path, pgnType, buf.Bytes())
					return
				}
				if g, ok := s.hub.lccGame(rd.Games[n-1]); ok {
					s.serveFeed(w, r, path, jsonType, jsonBody(g))
					return
				}
			}
		}
	}
	http.Error(w, "web: broadcast: no "+strconv.Quote(path)+" (want tournament.json, index.json, games.pgn, round-N/index.json, round-N/games.pgn, round-N/game-M.pgn, round-N/game-M.json)", http.StatusNotFound)
}
