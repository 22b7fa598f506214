package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
)

// The LiveChess Cloud layout that relays (lichess's broadcasts and others)
// poll, as LiveChess writes it under /get/<tournament>/:
//
//	tournament.json            the event and its rounds: [{count, live}]
//	round-N/index.json         the round's date and pairings, players as objects
//	round-N/game-M.json        a game: its moves as "SAN CLOCK+SPENT" strings
//
// Rounds are the Round tags that are whole numbers (round-1 is
// tournament.json's first round); games are numbered in each round in the
// natural order of the boards, as index.json numbers them.

// LCCPlayer is a player as LiveChess writes one: names, title, FIDE id.
type LCCPlayer struct {
	FName      *string `json:"fname"`
	MName      *string `json:"mname"`
	LName      *string `json:"lname"`
	Title      *string `json:"title"`
	Federation *string `json:"federation"`
	Gender     *string `json:"gender"`
	FideID     *int64  `json:"fideid"`
}

// LCCPairing is one game of a round's index.json.
type LCCPairing struct {
	White  LCCPlayer `json:"white"`
	Black  LCCPlayer `json:"black"`
	Result string    `json:"result"`
	Live   bool      `json:"live"`
}

// LCCRound is a round's index.json.
type LCCRound struct {
	Date     *string      `json:"date"`
	Pairings []LCCPairing `json:"pairings"`
}

// LCCRoundCount is a round in tournament.json: its games, and 1 while one
// of them is played.
type LCCRoundCount struct {
	Count int `json:"count"`
	Live  int `json:"live"`
}

// LCCTournament is tournament.json.
type LCCTournament struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Location    *string         `json:"location"`
	Country     *string         `json:"country"`
	Website     *string         `json:"website"`
	Rules       string          `json:"rules"`
	Chess960    string          `json:"chess960"`
	TimeControl *string         `json:"timecontrol"`
	Rounds      []LCCRoundCount `json:"rounds"`
	EBoards     []string        `json:"eboards"`
}

// LCCGame is a game's game-M.json: each move "SAN CLOCK+SPENT", the
// mover's clock after the move and the time the move took in whole
// seconds ("Nc3W 5371+59"); the clock alone where the time spent cannot be
// told from the clocks (a control with a delay or with periods, or the
// clock set by hand), the SAN alone without a clock.
type LCCGame struct {
	Live     bool     `json:"live"`
	SerialNr string   `json:"serialNr"`
	Chess960 int      `json:"chess960"` // 518: the start position (Scharnagl's numbering)
	Result   string   `json:"result"`
	Comment  *string  `json:"comment"`
	Clock    *string  `json:"clock"`
	Moves    []string `json:"moves"`
}

// lccPlayer splits a PGN name ("Kirk, James T.") into LiveChess's last and
// first names; the title and FIDE id come from the tags.
func lccPlayer(tags map[string]string, side string) LCCPlayer {
	str := func(s string) *string {
		if s = strings.TrimSpace(s); s == "" || s == "?" {
			return nil
		}
		return &s
	}
	var p LCCPlayer
	name := tags[side]
	if last, first, ok := strings.Cut(name, ","); ok {
		p.LName, p.FName = str(last), str(first)
	} else {
		p.LName = str(name)
	}
	p.Title = str(tags[side+"Title"])
	if id, err := strconv.ParseInt(strings.TrimSpace(tags[side+"FideId"]), 10, 64); err == nil && id > 0 {
		p.FideID = &id
	}
	return p
}

// lccMoves writes a game's moves as LiveChess does. The time a move took
// comes from the clocks (the mover's clock before it, its increment, and
// after it), so that it is the same after a restart of the set, which
// keeps the clocks of the moves but not when each was made.
func lccMoves(moves []*MoveView, control string) []string {
	var inc int64
	simple := false
	if c, err := clock.Parse(control); err == nil && len(c.Periods) == 1 && c.Periods[0].Moves == 0 {
		switch p := c.Periods[0]; p.Bonus {
		case clock.NoBonus:
			simple = true
		case clock.Increment:
			simple, inc = true, p.Amount.Milliseconds()
		}
	}
	var before [2]*int64 // each side's clock before its next move
	if simple {
		start, _ := clock.Parse(control)
		ms := start.Initial().Milliseconds()
		before = [2]*int64{&ms, &ms}
	}
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		side := 0
		if strings.HasSuffix(m.Num, "...") {
			side = 1
		}
		s := m.Short
		if m.ClkMS != nil {
			s += " " + strconv.FormatInt(max(0, *m.ClkMS)/1000, 10)
			if b := before[side]; simple && b != nil && *b+inc >= *m.ClkMS {
				s += "+" + strconv.FormatInt((*b+inc-*m.ClkMS+500)/1000, 10)
			}
		}
		before[side] = m.ClkMS
		out = append(out, s)
	}
	return out
}

// lccRounds are the rounds of bc whose names are whole numbers, by number.
func lccRounds(bc Broadcast) map[int]*BroadcastRound {
	out := map[int]*BroadcastRound{}
	for i := range bc.Rounds {
		if n, err := strconv.Atoi(bc.Rounds[i].Round); err == nil && n >= 1 && n <= 999 {
			out[n] = &bc.Rounds[i]
		}
	}
	return out
}

// lccTournament is tournament.json: the event from the boards' tags
// (Event, Site, TimeControl of the first board that has them), every
// round up to the last, empty rounds included.
func (h *Hub) lccTournament(bc Broadcast, sums []*Summary) LCCTournament {
	t := LCCTournament{Rules: "STANDARD", Chess960: "STANDARD", Rounds: []LCCRoundCount{}, EBoards: []string{}}
	tag := func(k string) string {
		for _, s := range sums {
			if v := strings.TrimSpace(s.Tags[k]); v != "" && v != "?" {
				return v
			}
		}
		return ""
	}
	t.Name = or(tag("Event"), "tridboard")
	t.ID = t.Name
	if v := tag("Site"); v != "" {
		t.Location = &v
	}
	if v := tag("TimeControl"); v != "" {
		t.TimeControl = &v
	}
	rounds := lccRounds(bc)
	last := 0
	for n := range rounds {
		last = max(last, n)
	}
	for n := 1; n <= last; n++ {
		rc := LCCRoundCount{}
		if r := rounds[n]; r != nil {
			rc.Count = r.Count
			if r.Live > 0 {
				rc.Live = 1
			}
		}
		t.Rounds = append(t.Rounds, rc)
	}
	for _, s := range sums {
		if s.Variant != "" {
			t.EBoards = append(t.EBoards, s.ID)
		}
	}
	return t
}

// lccRound is a round's index.json; its date is the Date tag of its first
// game that has a whole one ("2026.03.14" is "2026-03-14").
func (h *Hub) lccRound(r *BroadcastRound, tags map[string]map[string]string) LCCRound {
	out := LCCRound{Pairings: []LCCPairing{}}
	for _, g := range r.Games {
		t := tags[g.Board]
		out.Pairings = append(out.Pairings, LCCPairing{White: lccPlayer(t, "White"), Black: lccPlayer(t, "Black"), Result: g.Result, Live: g.Live})
		if d, err := time.Parse("2006.01.02", t["Date"]); err == nil && out.Date == nil {
			s := d.Format("2006-01-02")
			out.Date = &s
		}
	}
	return out
}

// lccGame is a game's game-M.json.
func (h *Hub) lccGame(g BroadcastGame) (LCCGame, bool) {
	v, ok := h.View(g.Board)
	if !ok {
		return LCCGame{}, false
	}
	control := ""
	if v.Clock != nil {
		control = v.Clock.Control
	}
	return LCCGame{Live: g.Live, SerialNr: g.Board, Chess960: 518, Result: g.Result, Moves: lccMoves(v.Moves, control)}, true
}

// feedStamps remembers, for each file of the broadcast feed, the ETag of
// its content and when that content was first served, its Last-Modified:
// a relay polling with If-None-Match or If-Modified-Since gets 304 until
// the file changes.
type feedStamps struct {
	mu    sync.Mutex
	files map[string]feedStamp
}

type feedStamp struct {
	etag string
	mod  time.Time
}

// stamp returns the ETag and Last-Modified of body served as path at now.
// A change gets a Last-Modified a second past the one before at least, so
// that If-Modified-Since (whole seconds) never hides it.
func (f *feedStamps) stamp(path string, body []byte, now time.Time) (string, time.Time) {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		f.files = map[string]feedStamp{}
	}
	old, ok := f.files[path]
	if ok && old.etag == etag {
		return etag, old.mod
	}
	mod := now.UTC().Truncate(time.Second)
	if ok && !mod.After(old.mod) {
		mod = old.mod.Add(time.Second)
	}
	f.files[path] = feedStamp{etag, mod}
	return etag, mod
}

// serveFeed serves one file of the broadcast feed with its ETag and
// Last-Modified, answering 304 to a poll that has it (If-None-Match, or
// If-Modified-Since without one: http.ServeContent decides, as RFC 9110
// says).
func (s *Server) serveFeed(w http.ResponseWriter, r *http.Request, path, ctype string, body []byte) {
	etag, mod := s.feed.stamp(path, body, s.hub.opts.Now())
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", mod, bytes.NewReader(body))
}

// jsonBody is v as the feed writes JSON: one line, a newline after it.
func jsonBody(v any) []byte {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		return []byte(fmt.Sprintf("{\"error\":%q}\n", err.Error()))
	}
	return b.Bytes()
}
