package event

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/tournament"
)

// The printable pages, for the notice board (A4, black on white) and the
// results site: /event/print/<page>, the site's <page>.html.
const (
	PrintPairings = "pairings"       // the round's pairings by board
	PrintAlpha    = "pairings-alpha" // the round's pairings by name
	PrintCards    = "cards"          // a pairing card a board, to cut out
	PrintStand    = "standings"      // the standings with tie-breaks
	PrintCross    = "crosstable"     // the crosstable
	PrintPrizes   = "prizes"         // the prize list
	PrintLeaders  = "exhibition"     // the exhibition's leaderboard
)

// PrintPages are the printable pages, in the order the site lists them.
var PrintPages = []string{PrintPairings, PrintAlpha, PrintCards, PrintStand, PrintCross, PrintPrizes, PrintLeaders}

var printTmpl = template.Must(template.New("p").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Event}}: {{.Title}}</title>
<style>
@page{size:A4;margin:12mm}
body{font:11pt/1.35 system-ui,sans-serif;color:#000;background:#fff;margin:0 auto;max-width:190mm;padding:4mm}
h1{font-size:16pt;margin:0 0 1mm} h2{font-size:12pt;font-weight:normal;margin:0 0 4mm}
table{border-collapse:collapse;width:100%} th,td{border-bottom:.3mm solid #888;padding:1.2mm 2mm;text-align:left;vertical-align:top}
th{border-bottom:.5mm solid #000} td.n,th.n{text-align:right} tr{break-inside:avoid}
nav{margin:0 0 4mm;font-size:10pt} nav a{margin-right:3mm;color:#004} p.note{font-size:9pt;color:#333}
.cards{display:grid;grid-template-columns:1fr 1fr;gap:4mm}
.card{border:.4mm dashed #000;padding:3mm;break-inside:avoid;height:52mm;box-sizing:border-box}
.card .b{font-size:20pt;font-weight:bold;float:right} .card p{margin:1mm 0} .card .box{display:inline-block;border:.3mm solid #000;width:18mm;height:8mm;vertical-align:middle}
body.small{font-size:7.5pt} body.small th,body.small td{padding:.5mm .8mm}
@media print{nav{display:none}}
</style></head><body{{if .Small}} class="small"{{end}}>
{{if .Nav}}<nav>{{range .Nav}}<a href="{{.Href}}">{{.Text}}</a>{{end}}</nav>{{end}}
<h1>{{.Event}}</h1><h2>{{.Title}}</h2>
{{if .Cards}}<div class="cards">{{range .Cards}}<div class="card"><span class="b">{{.Board}}</span>
<p>{{$.Title}}</p><p><b>White</b> {{.White}}</p><p><b>Black</b> {{.Black}}</p>
<p>Result: 1-0 <span class="box"></span> ½-½ <span class="box"></span> 0-1 <span class="box"></span></p>
<p>Signatures: ______________ ______________</p></div>{{end}}</div>
{{else}}<table><thead><tr>{{range $i, $h := .Head}}<th{{if index $.Num $i}} class="n"{{end}}>{{$h}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if index $.Num $i}} class="n"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody></table>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
</body></html>
`))

type link struct{ Href, Text string }

type card struct {
	Board        int
	White, Black string
}

type printData struct {
	Event, Title string
	Nav          []link
	Head         []string
	Num          []bool // right-aligned columns
	Rows         [][]string
	Cards        []card
	Notes        []string
	Small        bool // many columns: smaller type
}

// Print writes a printable page: one of PrintPages, for round (0: the last
// one paired).
func (r *Runner) Print(w io.Writer, page string, round int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, err := r.printData(page, round)
	if err != nil {
		return err
	}
	return writeTmpl(w, d)
}

func writeTmpl(w io.Writer, d printData) error {
	var b bytes.Buffer
	if err := printTmpl.Execute(&b, d); err != nil {
		return fmt.Errorf("event: page: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func fmtPoints(half int) string {
	s := strconv.Itoa(half / 2)
	if half%2 == 1 {
		if half == 1 {
			return "½"
		}
		s += "½"
	}
	return s
}

// halfBefore returns each player's score in half points before round n.
func (r *Runner) halfBefore(n int) map[int]int {
	h := map[int]int{}
	for _, rd := range r.t.Rounds {
		if rd.No >= n {
			break
		}
		for _, g := range rd.Games {
			w, b := halfPoints(g.Result)
			h[g.White] += w
			if !g.IsBye() {
				h[g.Black] += b
			}
		}
	}
	return h
}

// halfPoints is what a result gives each side, in half points.
func halfPoints(res tournament.Result) (white, black int) {
	switch res {
	case tournament.WhiteWins, tournament.WhiteForfeit, tournament.Bye:
		return 2, 0
	case tournament.BlackWins, tournament.BlackForfeit:
		return 0, 2
	case tournament.Draw, tournament.HalfBye:
		return 1, 1
	}
	return 0, 0
}

func resultText(g tournament.Game) string {
	switch g.Result {
	case tournament.None:
		return ""
	case tournament.Draw:
		return "½-½"
	case tournament.WhiteForfeit:
		return "+ : −"
	case tournament.BlackForfeit:
		return "− : +"
	case tournament.DoubleForfeit:
		return "− : −"
	}
	return string(g.Result)
}

func byeText(res tournament.Result) string {
	switch res {
	case tournament.HalfBye:
		return "half-point bye (asked for)"
	case tournament.ZeroBye:
		return "not playing (zero-point bye)"
	}
	return "bye (1 point)"
}

func (r *Runner) printData(page string, round int) (printData, error) {
	d := printData{Event: r.cfg.Name}
	if round == 0 {
		round = len(r.t.Rounds)
	}
	name := func(no int) string {
		p, _ := r.t.Player(no)
		return p.Name
	}
	switch page {
	case PrintPairings, PrintAlpha, PrintCards:
		rd, err := r.round(round)
		if err != nil {
			return d, err
		}
		before := r.halfBefore(round)
		d.Title = fmt.Sprintf("Round %d of %d: pairings", rd.No, r.t.Opts.Rounds)
		switch page {
		case PrintPairings:
			d.Head, d.Num = []string{"Board", "No", "White", "Pts", "Result", "Pts", "Black", "No", "Where"}, []bool{true, true, false, true, false, true, false, true, false}
			for _, g := range rd.Games {
				if g.IsBye() {
					d.Notes = append(d.Notes, fmt.Sprintf("%s (%d): %s", name(g.White), g.White, byeText(g.Result)))
					continue
				}
				where := g.Set
				if where == "" && rd.Started && !g.Result.Over() {
					where = "waits for a board"
				}
				d.Rows = append(d.Rows, []string{strconv.Itoa(g.Board), strconv.Itoa(g.White), name(g.White), fmtPoints(before[g.White]),
					resultText(g), fmtPoints(before[g.Black]), name(g.Black), strconv.Itoa(g.Black), where})
			}
		case PrintAlpha:
			d.Title = fmt.Sprintf("Round %d of %d: pairings by name", rd.No, r.t.Opts.Rounds)
			d.Head, d.Num = []string{"Name", "No", "Board", "Colour", "Opponent"}, []bool{false, true, true, false, false}
			for _, g := range rd.Games {
				if g.IsBye() {
					d.Rows = append(d.Rows, []string{name(g.White), strconv.Itoa(g.White), "", "", byeText(g.Result)})
					continue
				}
				d.Rows = append(d.Rows, []string{name(g.White), strconv.Itoa(g.White), strconv.Itoa(g.Board), "White", name(g.Black)},
					[]string{name(g.Black), strconv.Itoa(g.Black), strconv.Itoa(g.Board), "Black", name(g.White)})
			}
			sort.SliceStable(d.Rows, func(i, j int) bool { return strings.ToLower(d.Rows[i][0]) < strings.ToLower(d.Rows[j][0]) })
		case PrintCards:
			d.Title = fmt.Sprintf("Round %d: pairing cards", rd.No)
			for _, g := range rd.Games {
				if !g.IsBye() {
					d.Cards = append(d.Cards, card{g.Board, name(g.White), name(g.Black)})
				}
			}
		}
	case PrintStand:
		d.Title = "Standings"
		if c := r.t.Current(); c != nil {
			d.Title = fmt.Sprintf("Standings after round %d of %d", r.roundsOver(), r.t.Opts.Rounds)
		}
		d.Head = append([]string{"Rank", "No", "Name", "Rating", "Category", "Points"}, r.t.TiebreakNames()...)
		d.Num = []bool{true, true, false, true, false, true}
		for range r.t.TiebreakNames() {
			d.Num = append(d.Num, true)
		}
		for _, s := range r.t.Standings() {
			row := []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Player.No), s.Player.Name, rating(s.Player),
				r.desk.entrants[s.Player.No].Category, strconv.FormatFloat(s.Points, 'f', -1, 64)}
			if s.Player.Withdrawn {
				row[2] += " (withdrawn)"
			}
			for _, tb := range s.Tiebreaks {
				row = append(row, strconv.FormatFloat(tb, 'f', -1, 64))
			}
			d.Rows = append(d.Rows, row)
		}
		d.Notes = append(d.Notes, "Tie-breaks in order: "+strings.Join(r.t.TiebreakNames(), ", ")+".")
	case PrintCross:
		d.Title = "Crosstable"
		rows := r.crossRows()
		d.Head, d.Rows, d.Small = rows[0], rows[1:], len(rows[0]) > 12
		for i := range d.Head {
			d.Num = append(d.Num, i != 2)
		}
		d.Notes = append(d.Notes, "+5w: beat player 5 with White; =3b: drew player 3 with Black; -2w: lost; +F/-F: forfeits.")
	case PrintPrizes:
		d.Title = "Prizes"
		d.Head, d.Num = []string{"Prize", "For", "Name", "No", "Points"}, []bool{false, false, false, true, true}
		for _, p := range r.prizes() {
			what := fmt.Sprintf("place %d", p.Place)
			if p.Category != "" {
				what = fmt.Sprintf("best %s, %d", p.Category, p.Place)
			}
			d.Rows = append(d.Rows, []string{p.Prize.Prize, what, p.Player.Name, strconv.Itoa(p.Player.No), strconv.FormatFloat(p.Points, 'f', -1, 64)})
		}
		if c := r.t.Current(); c == nil || !c.Over() || len(r.t.Rounds) < r.t.Opts.Rounds {
			d.Notes = append(d.Notes, "Provisional: the tournament is not over.")
		}
	case PrintLeaders:
		d.Title = fmt.Sprintf("Exhibition leaderboard (Glicko-2, %d games)", len(r.exhib.games))
		d.Head, d.Num = []string{"Rank", "Name", "Rating", "RD", "Games", "Won", "Drawn", "Lost"}, []bool{true, false, true, true, true, true, true, true}
		for _, l := range r.leaderboard() {
			d.Rows = append(d.Rows, []string{strconv.Itoa(l.Rank), l.Name, strconv.FormatFloat(l.Rating, 'f', 0, 64),
				strconv.FormatFloat(l.RD, 'f', 0, 64), strconv.Itoa(l.Games), strconv.Itoa(l.Won), strconv.Itoa(l.Drawn), strconv.Itoa(l.Lost)})
		}
	default:
		return d, fmt.Errorf("event: no page %q (want one of %s): %w", page, strings.Join(PrintPages, ", "), ErrNotFound)
	}
	return d, nil
}

func rating(p tournament.Player) string {
	if p.Rating > 0 {
		return strconv.Itoa(p.Rating)
	}
	return ""
}

// roundsOver counts the rounds over.
func (r *Runner) roundsOver() int {
	n := 0
	for _, rd := range r.t.Rounds {
		if rd.Over() {
			n = rd.No
		}
	}
	return n
}

// WriteSite writes the results site into dir: a folder of HTML, PGN, TRF
// and JSON that any web server can serve as it is (index.html, round-N.html
// and its pages, round-N.pgn, round-N/index.json, standings.html,
// crosstable.html, prizes.html, exhibition.html and .pgn, tournament.trf).
// Each file is replaced atomically: a reader never sees half of one.
func (r *Runner) WriteSite(dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeSite(dir)
}

func (r *Runner) writeSite(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("event: site %s: %w", dir, err)
	}
	files := map[string][]byte{}
	nav := []link{{"index.html", "Event"}, {"standings.html", "Standings"}, {"crosstable.html", "Crosstable"},
		{"prizes.html", "Prizes"}, {"exhibition.html", "Exhibition"}, {"tournament.trf", "TRF"}}
	for n := 1; n <= len(r.t.Rounds); n++ {
		nav = append(nav, link{fmt.Sprintf("round-%d.html", n), fmt.Sprintf("Round %d", n)})
	}
	page := func(file, what string, round int) error {
		d, err := r.printData(what, round)
		if err != nil {
			return err
		}
		d.Nav = nav
		var b bytes.Buffer
		if err := writeTmpl(&b, d); err != nil {
			return err
		}
		files[file] = b.Bytes()
		return nil
	}
	for _, p := range []struct{ file, what string }{{"standings.html", PrintStand}, {"crosstable.html", PrintCross},
		{"prizes.html", PrintPrizes}, {"exhibition.html", PrintLeaders}} {
		if err := page(p.file, p.what, 0); err != nil {
			return err
		}
	}
	for n := 1; n <= len(r.t.Rounds); n++ {
		for _, p := range []struct{ file, what string }{{"round-%d.html", PrintPairings}, {"round-%d-alpha.html", PrintAlpha}, {"round-%d-cards.html", PrintCards}} {
			if err := page(fmt.Sprintf(p.file, n), p.what, n); err != nil {
				return err
			}
		}
		var b bytes.Buffer
		if err := r.roundPGN(&b, n); err != nil {
			return err
		}
		files[fmt.Sprintf("round-%d.pgn", n)] = b.Bytes()
		ix, err := r.index(n)
		if err != nil {
			return err
		}
		js, _ := json.MarshalIndent(ix, "", " ")
		files[fmt.Sprintf("round-%d/index.json", n)] = js
	}
	var trf bytes.Buffer
	if err := r.trf(&trf); err != nil {
		return err
	}
	files["tournament.trf"] = trf.Bytes()
	var ex bytes.Buffer
	for i, g := range r.exhib.games {
		if i > 0 {
			ex.WriteString("\n")
		}
		if err := r.writePGN(&ex, pgnGame{event: r.exhibitionEvent(), white: tournament.Player{Name: g.White},
			black: tournament.Player{Name: g.Black}, result: g.Result, reason: g.Reason, rec: r.exhib.recs[g.GameID], date: g.Day}); err != nil {
			return err
		}
	}
	files["exhibition.pgn"] = ex.Bytes()
	// The index: the standings, with links to everything.
	if err := page("index.html", PrintStand, 0); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("event: site: %w", err)
		}
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, files[f]) {
			continue
		}
		if err := durable.WriteAtomic(p, files[f]); err != nil {
			return fmt.Errorf("event: site %s: %w", p, err)
		}
	}
	return nil
}
