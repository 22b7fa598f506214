package event

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/tournament"
)

// terminations maps the sets' termination words to PGN's Termination tag.
var terminations = map[string]string{"time": "time forfeit", "checkmate": "normal", "resignation": "normal",
	"agreement": "normal", "stalemate": "normal"}

// ErrNotPlayed is a game that was not played over the board (a forfeit):
// it has no PGN.
var ErrNotPlayed = errors.New("event: not played (a forfeit): no game record")

// GamePGN writes round/board's game as PGN: the event's tags (Event, Site,
// Date, Round, Board, players with Elo, title and FIDE id, Result,
// TimeControl, Termination), the moves the set reported with [%clk] where a
// state showed the clock, and "*" while it is played. A forfeit is no game:
// ErrNotPlayed.
func (r *Runner) GamePGN(w io.Writer, round, board int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gamePGN(w, round, board)
}

// pgnGame is what a PGN is written from.
type pgnGame struct {
	event        string
	round, board int
	white, black tournament.Player
	result       string // PGN's
	reason       string
	rec          *gameRecord
	date         string // YYYY-MM-DD; empty: today
}

func (r *Runner) gamePGN(w io.Writer, round, board int) error {
	g, err := r.gameRef(round, board)
	if err != nil {
		return err
	}
	if g.IsBye() {
		return fmt.Errorf("event: round %d board %d is a bye: %w", round, board, ErrNotFound)
	}
	if g.Result.Over() && !g.Result.Played() {
		return fmt.Errorf("event: round %d board %d: %w", round, board, ErrNotPlayed)
	}
	wp, _ := r.t.Player(g.White)
	bp, _ := r.t.Player(g.Black)
	res := "*"
	switch g.Result {
	case tournament.WhiteWins:
		res = "1-0"
	case tournament.BlackWins:
		res = "0-1"
	case tournament.Draw:
		res = "1/2-1/2"
	}
	return r.writePGN(w, pgnGame{event: r.cfg.Name, round: round, board: board, white: wp, black: bp,
		result: res, reason: g.Reason, rec: r.recs[[2]int{round, board}]})
}

// termination returns PGN's Termination for a game that ended for reason:
// "normal", "time forfeit", "rules infraction" (an illegal move), or
// "adjudication" (another decision of the arbiter's).
func termination(reason string) string {
	if t, ok := terminations[reason]; ok {
		return t
	}
	l := strings.ToLower(reason)
	switch {
	case strings.Contains(l, "illegal"):
		return "rules infraction"
	case strings.HasPrefix(l, "arbiter"):
		return "adjudication"
	}
	return "normal"
}

func (r *Runner) writePGN(w io.Writer, pg pgnGame) error {
	date := r.o.Now().UTC().Format("2006.01.02")
	if pg.date != "" {
		date = strings.ReplaceAll(pg.date, "-", ".")
	}
	rnd, brd := "-", ""
	if pg.round > 0 {
		rnd, brd = strconv.Itoa(pg.round), strconv.Itoa(pg.board)
	}
	tags := []record.Tag{{Name: "Event", Value: pg.event}, {Name: "Site", Value: or(r.cfg.Site, "?")},
		{Name: "Date", Value: date}, {Name: "Round", Value: rnd}}
	if brd != "" {
		tags = append(tags, record.Tag{Name: "Board", Value: brd})
	}
	tags = append(tags, record.Tag{Name: "White", Value: pg.white.Name}, record.Tag{Name: "Black", Value: pg.black.Name},
		record.Tag{Name: "Result", Value: pg.result})
	for _, p := range []struct {
		side string
		pl   tournament.Player
	}{{"White", pg.white}, {"Black", pg.black}} {
		if p.pl.Rating > 0 {
			tags = append(tags, record.Tag{Name: p.side + "Elo", Value: strconv.Itoa(p.pl.Rating)})
		}
		if p.pl.Title != "" {
			tags = append(tags, record.Tag{Name: p.side + "Title", Value: p.pl.Title})
		}
		if p.pl.FideID != "" {
			tags = append(tags, record.Tag{Name: p.side + "FideId", Value: p.pl.FideID})
		}
	}
	tags = append(tags, record.Tag{Name: "Variant", Value: r.cfg.Variant})
	rec := pg.rec
	tc := r.cfg.TimeControl
	if pg.round == 0 {
		tc = or(r.cfg.ExhibitionTC, tc)
	}
	if rec != nil && rec.TC != "" {
		tc = rec.TC
	}
	if tc != "" && tc != "-" {
		tags = append(tags, record.Tag{Name: "TimeControl", Value: tc})
	}
	if pg.result != "*" {
		tags = append(tags, record.Tag{Name: "Termination", Value: termination(pg.reason)})
	}
	out := &record.Record{Tags: tags, Result: pg.result}
	first, whiteFirst := 1, true
	if rec != nil && len(rec.Moves) > 0 {
		sys, err := systems.Lookup(r.cfg.Variant, r.cfg.Options)
		if err != nil {
			return err
		}
		pos := sys.Start()
		if rec.Start != "" {
			if pos, err = sys.ParsePosition(rec.Start); err != nil {
				return err
			}
			out.Tags = append(out.Tags, record.Tag{Name: "Position", Value: rec.Start})
		}
		first, whiteFirst = pos.FullmoveNumber(), pos.Turn() == rules.White
		out.Comments = make([]string, 0, len(rec.Moves))
		for i, long := range rec.Moves {
			m, _, err := pos.ParseMove(long)
			if err != nil {
				return fmt.Errorf("event: %s round %s board %s: move %d %s: %w", pg.event, rnd, brd, i+1, long, err)
			}
			out.Moves = append(out.Moves, pos.Short(m))
			c := ""
			if i < len(rec.ClkMS) && rec.ClkMS[i] >= 0 {
				c = clock.ClkComment(time.Duration(rec.ClkMS[i]) * time.Millisecond)
			}
			out.Comments = append(out.Comments, c)
			pos = pos.Play(m)
		}
	}
	return record.Write(w, out, first, whiteFirst)
}

func or(v, empty string) string {
	if v == "" {
		return empty
	}
	return v
}

// RoundPGN writes every game of round n (byes left out), one after another.
func (r *Runner) RoundPGN(w io.Writer, n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.roundPGN(w, n)
}

func (r *Runner) roundPGN(w io.Writer, n int) error {
	rd, err := r.round(n)
	if err != nil {
		return err
	}
	n0 := 0
	for _, g := range rd.Games {
		if g.IsBye() || (g.Result.Over() && !g.Result.Played()) {
			continue // a bye or a forfeit: no game
		}
		if n0++; n0 > 1 {
			io.WriteString(w, "\n")
		}
		if err := r.gamePGN(w, n, g.Board); err != nil {
			return err
		}
	}
	return nil
}

// RoundIndex is round-N/index.json as broadcast relays poll it (LiveChess's
// layout): one pairing a board, with the players and the result.
type RoundIndex struct {
	Round    int            `json:"round"`
	Pairings []IndexPairing `json:"pairings"`
}

// IndexPairing is one board of RoundIndex.
type IndexPairing struct {
	Board  int         `json:"board"`
	White  IndexPlayer `json:"white"`
	Black  IndexPlayer `json:"black"`
	Result string      `json:"result"`
	Live   bool        `json:"live"`
	PGN    string      `json:"pgn,omitempty"` // none for a forfeit
}

// IndexPlayer is a player as RoundIndex shows one.
type IndexPlayer struct {
	Name   string `json:"name"`
	Title  string `json:"title,omitempty"`
	Rating int    `json:"rating,omitempty"`
	FideID string `json:"fideid,omitempty"`
}

// Index returns round n's index.
func (r *Runner) Index(n int) (RoundIndex, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.index(n)
}

func (r *Runner) index(n int) (RoundIndex, error) {
	rd, err := r.round(n)
	if err != nil {
		return RoundIndex{}, err
	}
	ix := RoundIndex{Round: n, Pairings: []IndexPairing{}}
	for _, g := range rd.Games {
		if g.IsBye() {
			continue
		}
		wp, _ := r.t.Player(g.White)
		bp, _ := r.t.Player(g.Black)
		res := string(g.Result)
		if res == "" {
			res = "*"
		}
		pgn := fmt.Sprintf("game-%d.pgn", g.Board)
		if g.Result.Over() && !g.Result.Played() {
			pgn = "" // a forfeit: no game
		}
		ix.Pairings = append(ix.Pairings, IndexPairing{Board: g.Board,
			White:  IndexPlayer{wp.Name, wp.Title, wp.Rating, wp.FideID},
			Black:  IndexPlayer{bp.Name, bp.Title, bp.Rating, bp.FideID},
			Result: res, Live: rd.Started && !g.Result.Over(), PGN: pgn})
	}
	return ix, nil
}

// TRF writes the event as TRF-2026 (tournament.WriteTRF): byes by kind
// (U, F, H, Z).
func (r *Runner) TRF(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trf(w)
}

func (r *Runner) trf(w io.Writer) error { return r.t.WriteTRF(w) }

// crossRows returns the crosstable: a header and a row a player in
// standings order: rank, name, rating, each round ("+5w": beat 5 with
// White; "=3b", "-2w", "+" forfeit win, "bye"), points, tie-breaks.
func (r *Runner) crossRows() [][]string {
	head := []string{"Rank", "No", "Name", "Rating"}
	for i := 1; i <= len(r.t.Rounds); i++ {
		head = append(head, "R"+strconv.Itoa(i))
	}
	head = append(head, "Points")
	head = append(head, r.t.TiebreakNames()...)
	rows := [][]string{head}
	for _, s := range r.t.Standings() {
		row := []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Player.No), s.Player.Name, ""}
		if s.Player.Rating > 0 {
			row[3] = strconv.Itoa(s.Player.Rating)
		}
		for _, rd := range r.t.Rounds {
			row = append(row, cell(rd, s.Player.No))
		}
		row = append(row, strconv.FormatFloat(s.Points, 'f', 1, 64))
		for _, tb := range s.Tiebreaks {
			row = append(row, strconv.FormatFloat(tb, 'f', 2, 64))
		}
		rows = append(rows, row)
	}
	return rows
}

func cell(rd tournament.Round, p int) string {
	for _, g := range rd.Games {
		if g.IsBye() && g.White == p {
			switch g.Result {
			case tournament.HalfBye:
				return "½ bye"
			case tournament.ZeroBye:
				return "0 bye"
			}
			return "bye"
		}
		if g.White != p && g.Black != p {
			continue
		}
		opp, c := g.Black, "w"
		if g.Black == p {
			opp, c = g.White, "b"
		}
		mark := map[tournament.Result][2]string{tournament.WhiteWins: {"+", "-"}, tournament.BlackWins: {"-", "+"},
			tournament.Draw: {"=", "="}, tournament.WhiteForfeit: {"+F", "-F"}, tournament.BlackForfeit: {"-F", "+F"},
			tournament.DoubleForfeit: {"-F", "-F"}}[g.Result]
		m := "*"
		if g.Result.Over() {
			m = mark[0]
			if c == "b" {
				m = mark[1]
			}
		}
		return m + strconv.Itoa(opp) + c
	}
	return ""
}

// CrosstableCSV writes the crosstable as CSV.
func (r *Runner) CrosstableCSV(w io.Writer) error {
	r.mu.Lock()
	rows := r.crossRows()
	r.mu.Unlock()
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("event: crosstable: %w", err)
	}
	return nil
}

var crossTmpl = template.Must(template.New("x").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Name}}: crosstable</title>
<style>body{font:1.2rem system-ui,sans-serif;margin:1rem;background:#111;color:#eee}table{border-collapse:collapse}
th,td{padding:.3em .6em;border-bottom:1px solid #444;text-align:right}td:nth-child(3),th:nth-child(3){text-align:left}</style>
</head><body><h1>{{.Name}}</h1><table>{{range $i, $r := .Rows}}<tr>{{range $r}}{{if eq $i 0}}<th>{{.}}</th>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>
{{end}}</table></body></html>`))

// CrosstableHTML writes the crosstable as a page.
func (r *Runner) CrosstableHTML(w io.Writer) error {
	r.mu.Lock()
	rows := r.crossRows()
	name := r.cfg.Name
	r.mu.Unlock()
	var b bytes.Buffer
	if err := crossTmpl.Execute(&b, struct {
		Name string
		Rows [][]string
	}{name, rows}); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
