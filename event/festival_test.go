package event

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/web/webtest"
)

var bigFestival = flag.Bool("festival.big", false, "TestFestival: 120 players, 9 rounds, 8 sets")

// simHall is the hall's sets as the event sees them: each set plays the
// game it was last sent (its players make legal moves, the clock after
// each move recorded as a set records it) and keeps its last state, the
// retained state a broker hands a follower that (re)connects.
type simHall struct {
	mu    sync.Mutex
	games map[string]*simGame // set -> its game
	ids   int
}

type simGame struct {
	id      string
	tags    map[string]string
	moves   []string // to play
	played  int
	result  string
	reason  string
	last    protocol.State
	started bool
}

func (h *simHall) Send(set, command string, p map[string]any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if command != protocol.CmdNewGame {
		return nil
	}
	h.ids++
	tags := map[string]string{}
	for k, tag := range map[string]string{"event": "Event", "round": "Round", "board": "Board", "white": "White", "black": "Black"} {
		if v, ok := p[k].(string); ok {
			tags[tag] = v
		}
	}
	h.games[set] = &simGame{id: fmt.Sprintf("g%04d", h.ids), tags: tags}
	return nil
}

// game returns the game set plays, if it has one not over.
func (h *simHall) game(set string) *simGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	if g := h.games[set]; g != nil && (g.moves == nil || g.played < len(g.moves)) {
		return g
	}
	return nil
}

// state is the set's state after g's first n moves, over when n is all.
func (g *simGame) state(n int) protocol.State {
	res, reason := "*", ""
	if n == len(g.moves) {
		res, reason = g.result, g.reason
	}
	st := playing(protocol.State{Game: g.id, Tags: g.tags}, g.moves[:n], true)
	st.Result, st.Reason = res, reason
	return st
}

// festival is the event the desk runs, killed and opened again at will.
type festival struct {
	t    *testing.T
	dir  string
	site string
	hall *simHall
	now  time.Time
	r    *Runner
	sets []string
}

func (f *festival) opts() Opts {
	return Opts{Dir: f.dir, SiteDir: f.site, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now: func() time.Time { f.now = f.now.Add(time.Second); return f.now }}
}

// kill drops the runner (its journal is all it leaves) and starts another
// on the same journal; the sets' retained states reach it again. The
// records are the same before and after.
func (f *festival) kill() {
	f.t.Helper()
	rounds := len(f.r.Snapshot().Paired)
	before := records(f.t, f.r, rounds)
	f.r.Close()
	r, err := Open(f.opts(), f.hall)
	if err != nil {
		f.t.Fatalf("the festival does not start again: %v", err)
	}
	f.r = r
	if after := records(f.t, f.r, rounds); after != before {
		f.t.Fatalf("the records changed across a kill:\n%s\nwere\n%s", after, before)
	}
	f.online()
}

func (f *festival) online() {
	f.hall.mu.Lock()
	var last []func()
	for _, s := range f.sets {
		f.r.Online(s, true)
		if g := f.hall.games[s]; g != nil && g.started {
			set, st := s, g.last
			last = append(last, func() { f.r.Observe(set, st) })
		}
	}
	f.hall.mu.Unlock()
	for _, fn := range last {
		fn()
	}
}

// play plays the game on set to its end (the event sees each move's
// state), or only its first stop moves; away: the event is down, it sees
// nothing (the retained state tells it later).
func (f *festival) play(set string, rnd *rand.Rand, stop int, away bool) {
	g := f.hall.game(set)
	if g == nil {
		return
	}
	if g.moves == nil {
		g.moves = line(f.t, 4+rnd.Intn(10), rnd.Intn(50))
		g.result = []string{"1-0", "0-1", "1/2-1/2"}[rnd.Intn(3)]
		g.reason = map[string]string{"1-0": "resignation", "0-1": "resignation", "1/2-1/2": "agreement"}[g.result]
	}
	end := len(g.moves)
	if stop >= 0 && stop < end {
		end = stop
	}
	for ; g.played <= end; g.played++ {
		st := g.state(g.played)
		f.hall.mu.Lock()
		g.last, g.started = st, true
		f.hall.mu.Unlock()
		if !away {
			f.r.Observe(set, st)
		}
	}
	g.played = end
	if end == len(g.moves) {
		f.hall.mu.Lock()
		g.last = g.state(end)
		f.hall.mu.Unlock()
	}
}

// The whole festival, at speed, from the desk: 40 players registered on
// day 1; 20 exhibition games on 4 sets over two days (some against the
// engine), rated; the day-3 lightning Swiss of 7 rounds seeded by those
// ratings, on 4 sets and 6 tables without sensors (games waiting for a
// free board), with two late entries, a withdrawal, half-point byes, a
// forfeit, and the event killed three times in the middle of a round (once
// with games ending while it was down). At the end every game played on a
// set has every move with its clock in its PGN, the TRF holds every result
// and bye, the results site is written, and the printable pages render in
// Chromium on A4.
func TestFestival(t *testing.T) {
	players, rounds, nsets, ntables, exGames := 40, 7, 4, 6, 20
	if *bigFestival {
		players, rounds, nsets, ntables, exGames = 120, 9, 8, 20, 60
	}
	f := &festival{t: t, dir: t.TempDir(), hall: &simHall{games: map[string]*simGame{}},
		now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)}
	for i := 1; i <= nsets; i++ {
		f.sets = append(f.sets, fmt.Sprintf("hall-%d", i))
	}
	var tables []string
	for i := 1; i <= ntables; i++ {
		tables = append(tables, fmt.Sprintf("T%d", i))
	}
	site := filepath.Join(t.TempDir(), "site")
	f.site = site
	var err error
	f.r, err = Create(f.opts(), Config{Name: "Pragyan 3D", Site: "Hall A", System: tournament.Swiss, Rounds: rounds,
		Boards: f.sets, Tables: tables, TimeControl: "180+2", ExhibitionTC: "600"}, nil, f.hall)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { f.r.Close() }()
	f.online()
	rnd := rand.New(rand.NewSource(35))

	// Day 1: the desk registers everyone; some have a rating.
	for i := 1; i <= players; i++ {
		p := tournament.Player{Name: fmt.Sprintf("Player %02d", i)}
		if i%3 == 0 {
			p.Rating = 1400 + 10*i
		}
		cat := ""
		if i%4 == 0 {
			cat = "newcomer"
		}
		if _, err := f.r.Register(p, Entrant{FestivalID: fmt.Sprintf("F%03d", i), Category: cat}); err != nil {
			t.Fatal(err)
		}
	}
	// Days 1 and 2: walk-up games at the free sets, every fourth against
	// the engine.
	for i := 0; i < exGames; i++ {
		if i == exGames/2 {
			f.now = f.now.Add(24 * time.Hour) // day 2
		}
		set := f.sets[i%nsets]
		w, b := fmt.Sprintf("F%03d", 1+rnd.Intn(players)), fmt.Sprintf("F%03d", 1+rnd.Intn(players))
		for b == w {
			b = fmt.Sprintf("F%03d", 1+rnd.Intn(players))
		}
		engine := 0
		if i%4 == 3 {
			engine = 3
		}
		if _, err := f.r.StartExhibition(ExStart{Set: set, White: w, Black: b, Engine: engine}, "desk"); err != nil {
			t.Fatalf("exhibition game %d: %v", i, err)
		}
		f.play(set, rnd, -1, false)
	}
	if ex := f.r.Exhibition(); len(ex) != exGames {
		t.Fatalf("%d exhibition games recorded, want %d", len(ex), exGames)
	}
	lb := f.r.Leaderboard()
	engine := false
	for _, l := range lb {
		engine = engine || l.Engine
	}
	if len(lb) < 10 || !engine {
		t.Errorf("leaderboard %+v", lb)
	}
	seeded, err := f.r.SeedFromExhibition("the exhibition's ratings seed the unrated")
	if err != nil || len(seeded) == 0 {
		t.Fatalf("seeding: %v", err)
	}
	if err := f.r.Configure(Settings{Prizes: []Prize{{Place: 1, Prize: "Trophy"}, {Place: 2, Prize: "Book"},
		{Place: 1, Category: "newcomer", Prize: "Medal"}}}, "the festival's prizes"); err != nil {
		t.Fatal(err)
	}

	// Day 3: the lightning Swiss.
	f.now = f.now.Add(24 * time.Hour)
	forfeited := [2]int{}
	late := 0
	for n := 1; n <= rounds; n++ {
		switch n {
		case 3:
			for _, name := range []string{"Late Lee", "Late Lou"} {
				late++
				if _, err := f.r.Register(tournament.Player{Name: name}, Entrant{FestivalID: fmt.Sprintf("L%d", late)}); err != nil {
					t.Fatal(err)
				}
			}
		case 5:
			if err := f.r.Withdraw(7, "went home"); err != nil {
				t.Fatal(err)
			}
			for _, no := range []int{11, 12} {
				if err := f.r.RequestBye(5, no, tournament.HalfBye, "a lecture"); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := f.r.PairNext(); err != nil {
			t.Fatalf("round %d: %v", n, err)
		}
		reps, err := f.r.StartRound(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, rep := range reps {
			if !rep.OK && !rep.Waiting {
				t.Fatalf("round %d: %+v", n, rep)
			}
		}
		if n == 3 {
			// A no-show on a table: the arbiter's forfeit.
			for _, g := range f.r.Snapshot().Paired[2].Games {
				if g.Set == "T1" {
					if _, err := f.r.SetResult(3, g.Board, "+-", "Black did not come"); err != nil {
						t.Fatal(err)
					}
					forfeited = [2]int{3, g.Board}
				}
			}
		}
		kill := n == 2 || n == 4 || n == 6
		for step := 0; ; step++ {
			rd := f.r.Snapshot().Paired[n-1]
			if rd.Over() {
				break
			}
			if step > 500 {
				t.Fatalf("round %d does not end: %+v", n, rd)
			}
			for _, g := range rd.Games {
				if g.Result.Over() || g.Set == "" {
					continue
				}
				if f.r.isTable(g.Set) {
					res := []string{"1-0", "0-1", "1/2-1/2"}[rnd.Intn(3)]
					if _, err := f.r.SetResult(n, g.Board, res, "result slip from "+g.Set); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if kill && step == 0 {
					// Half the set's game, then the event is killed; the set's
					// game ends while it is down (n 6), or after.
					f.play(g.Set, rnd, 3, false)
					continue
				}
				f.play(g.Set, rnd, -1, false)
			}
			if kill && step == 0 {
				if n == 6 {
					f.r.Close()
					for _, s := range f.sets {
						f.play(s, rnd, -1, true)
					}
					r, err := Open(f.opts(), f.hall)
					if err != nil {
						t.Fatal(err)
					}
					f.r = r
					f.online()
				} else {
					f.kill()
				}
			}
			// The games sent to freed sets go out on their own goroutines.
			waitFor(t, "the freed sets have their games", func() bool {
				s := f.r.Snapshot()
				rd := s.Paired[n-1]
				for _, g := range rd.Games {
					if !g.IsBye() && !g.Result.Over() && g.Set != "" && !f.r.isTable(g.Set) {
						if hg := f.hall.game(g.Set); hg == nil || hg.tags["Round"] != strconv.Itoa(n) || hg.tags["Board"] != strconv.Itoa(g.Board) {
							return false
						}
					}
				}
				return true
			})
		}
	}

	// Every game on a set holds every move with its clock.
	s := f.r.Snapshot()
	onSets := 0
	for _, rd := range s.Paired {
		for _, g := range rd.Games {
			if g.IsBye() || !g.Result.Played() || f.r.isTable(g.Set) {
				continue
			}
			var b bytes.Buffer
			if err := f.r.GamePGN(&b, rd.No, g.Board); err != nil {
				t.Fatal(err)
			}
			rec := f.r.recs[[2]int{rd.No, g.Board}]
			if rec == nil || len(rec.Moves) < 4 {
				t.Errorf("round %d board %d (%s): no moves recorded", rd.No, g.Board, g.Set)
				continue
			}
			plies := len(rec.Moves)
			if n := strings.Count(b.String(), "[%clk "); n != plies {
				t.Errorf("round %d board %d: %d clocks for %d plies:\n%s", rd.No, g.Board, n, plies, b.String())
			}
			onSets++
		}
	}
	if onSets < rounds*nsets {
		t.Errorf("only %d games on sets", onSets)
	}
	// The forfeit is no game; the withdrawn player is not paired after.
	var b bytes.Buffer
	if err := f.r.GamePGN(&b, forfeited[0], forfeited[1]); err == nil {
		t.Error("the forfeit has a PGN")
	}
	for _, rd := range s.Paired[4:] {
		for _, g := range rd.Games {
			if g.White == 7 || g.Black == 7 {
				t.Errorf("the withdrawn player plays round %d", rd.No)
			}
		}
	}
	// The TRF: a line a player, every round's block as the event has it.
	b.Reset()
	f.r.TRF(&b)
	f.r.mu.Lock()
	pn := f.r.t.PairingNumbers()
	f.r.mu.Unlock()
	checkTRF(t, b.String(), s, pn)
	// The TRF reads back, and a pairing checker (tridboard pair -c) finds
	// every round paired as the Dutch rules pair it.
	back, err := tournament.ReadTRF(strings.NewReader(b.String()), "festival.trf")
	if err != nil {
		t.Fatalf("the festival's TRF does not read back: %v", err)
	}
	for _, d := range back.Check() {
		t.Errorf("pair -c: round %d: the rules pair %v (%v); the event has %v", d.Round, d.Rules, d.Err, d.Had)
	}
	if st := s.Standings; len(st) != players+2 || st[0].Points < st[len(st)-1].Points {
		t.Errorf("standings of %d", len(st))
	}
	// The results site.
	for _, name := range []string{"index.html", "standings.html", "crosstable.html", "prizes.html", "exhibition.html",
		"exhibition.pgn", "tournament.trf", fmt.Sprintf("round-%d.html", rounds), fmt.Sprintf("round-%d.pgn", rounds), fmt.Sprintf("round-%d/index.json", rounds)} {
		if fi, err := os.Stat(filepath.Join(site, name)); err != nil || fi.Size() == 0 {
			t.Errorf("the site's %s: %v", name, err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(site, "tournament.trf")); !bytes.Equal(got, b.Bytes()) {
		t.Error("the site's TRF is not the event's")
	}

	// The printable pages in Chromium, on A4.
	url, _ := webtest.Serve(t, Handler(f.r, "tok"), "")
	ctx := webtest.Browser(t)
	for _, p := range []struct {
		page string
		rows int
	}{
		{"pairings?round=7", len(s.Paired[rounds-1].Games) - countByes(s.Paired[rounds-1])},
		{"pairings-alpha?round=7", len(s.Players) - 1},
		{"standings", players + 2},
		{"crosstable", players + 2},
		{"prizes", 3},
		{"exhibition", len(lb)},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(794, 1123), chromedp.Navigate(url+"/event/print/"+p.page)); err != nil {
			t.Fatal(err)
		}
		webtest.WaitJS(t, ctx, p.page, `document.querySelector("h2") !== null`)
		if n := webtest.Eval[int](t, ctx, `document.querySelectorAll("tbody tr").length`); n != p.rows {
			t.Errorf("%s: %d rows, want %d", p.page, n, p.rows)
		}
		if w := webtest.Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 794 {
			t.Errorf("%s is %d px wide: wider than A4", p.page, w)
		}
	}
	// The hall's screen at 1920x1080 pages through the round (every board on
	// one screen or more), the standings and the exhibition, each screen
	// filled and nothing cut off.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(url+"/event/hall")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the hall's first screen", `document.querySelector("#what").textContent === "Round 7 of 7"`)
	shown := map[string]int{}
	for i := 0; i < 12; i++ {
		what := webtest.Eval[string](t, ctx, `document.querySelector("#what").textContent + " " + document.querySelector("#page").textContent`)
		shown[what] = webtest.Eval[int](t, ctx, `document.querySelectorAll("#table tbody tr").length`)
		if bottom := webtest.Eval[float64](t, ctx, `document.querySelector("#table").getBoundingClientRect().bottom`); bottom > 1080 {
			t.Errorf("%s: the table ends at %.0f px, below the screen", what, bottom)
		}
		if i == 0 {
			shot(t, ctx, "hall")
		}
		webtest.Eval[bool](t, ctx, `(next(), true)`)
	}
	rowsStand, rowsLeaders := 0, 0
	for what, n := range shown {
		if strings.HasPrefix(what, "Standings") {
			rowsStand += n
		}
		if strings.HasPrefix(what, "Exhibition leaderboard") {
			rowsLeaders += n
		}
	}
	if rowsStand != players+2 || rowsLeaders != len(lb) {
		t.Errorf("the hall showed %v", shown)
	}
	for _, p := range []string{"standings", "cards?round=7", "crosstable"} {
		chromedp.Do(ctx, chromedp.EmulateViewport(794, 1123), chromedp.Navigate(url+"/event/print/"+p))
		webtest.WaitJS(t, ctx, p, `document.querySelector("h2") !== null`)
		shot(t, ctx, strings.Split(p, "?")[0])
	}
	chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/desk"))
	webtest.WaitJS(t, ctx, "the desk", `document.querySelectorAll("#players tbody tr").length === 42`)
	shot(t, ctx, "desk")

	// Printed: A4 pages.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/event/print/standings")); err != nil {
		t.Fatal(err)
	}
	yes := true
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes})
	if err != nil {
		t.Fatal(err)
	}
	pdf := res.Data
	if pages := bytes.Count(pdf, []byte("/Type /Page\n")) + bytes.Count(pdf, []byte("/Type /Page ")) + bytes.Count(pdf, []byte("/Type/Page")); !bytes.HasPrefix(pdf, []byte("%PDF")) || pages < 1 {
		t.Errorf("standings printed: %d bytes, %d pages", len(pdf), pages)
	}
}

func countByes(rd tournament.Round) int {
	n := 0
	for _, g := range rd.Games {
		if g.IsBye() {
			n++
		}
	}
	return n
}

// checkTRF reads each player line's round blocks (TRF-16's fixed columns)
// and checks them against the event's games.
func checkTRF(t *testing.T, trf string, s Snapshot, pn []int) {
	t.Helper()
	// The TRF numbers the players by pairing number (its start ranks):
	// pn[player] is the player's.
	player := map[int]int{}
	for p, n := range pn {
		player[n] = p
	}
	lines := 0
	for _, l := range strings.Split(trf, "\n") {
		if !strings.HasPrefix(l, "001") {
			continue
		}
		lines++
		rs := []rune(l)
		start, _ := strconv.Atoi(strings.TrimSpace(string(rs[4:8])))
		no := player[start]
		for _, rd := range s.Paired {
			want := ""
			for _, g := range rd.Games {
				switch {
				case g.IsBye() && g.White == no:
					want = "0000 - " + map[tournament.Result]string{tournament.Bye: "U", tournament.HalfBye: "H", tournament.ZeroBye: "Z"}[g.Result]
				case g.White == no || g.Black == no:
					opp, c, mine := g.Black, "w", 0
					w, bl := halfPoints(g.Result)
					mine = w
					if g.Black == no {
						opp, c, mine = g.White, "b", bl
					}
					res := map[int]string{2: "1", 1: "=", 0: "0"}[mine]
					if !g.Result.Played() {
						res = map[int]string{2: "+", 0: "-"}[mine]
					}
					want = fmt.Sprintf("%4d %s %s", pn[opp], c, res)
				}
			}
			c := 91 + (rd.No-1)*10
			got := ""
			if c+8 <= len(rs) {
				got = string(rs[c : c+8])
			}
			if strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("TRF player %d round %d: %q, want %q", no, rd.No, got, want)
			}
		}
	}
	if lines != len(s.Players) {
		t.Errorf("TRF has %d player lines for %d players", lines, len(s.Players))
	}
}

// shot keeps a screenshot where TRIDBOARD_SHOTS says (for a person to look
// at), else in the test's temporary directory.
func shot(t *testing.T, ctx context.Context, what string) {
	p := webtest.Shot(t, ctx, what)
	if d := os.Getenv("TRIDBOARD_SHOTS"); d != "" && p != "" {
		b, _ := os.ReadFile(p)
		os.WriteFile(filepath.Join(d, what+".png"), b, 0o644)
	}
}
