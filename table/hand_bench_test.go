package table_test

import (
	"cmp"
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
)

// disk is a journal whose writes take simulated time: every one stall,
// or with every above 1, one in every that long and the others 5 ms (an
// SD card's occasional stall). The driver lets a write finish once the
// simulated clock has passed its time, and waits for its result before the
// next scan, so that the figures are the same on any machine. While open
// (a command that waits for the journal, the end), writes do not wait.
type disk struct {
	stall         time.Duration
	every, n      int
	now           func() time.Time
	mu            sync.Mutex
	blocked, open bool
	since         time.Time
	takes         time.Duration // the write in progress
}

// write runs on the journal's goroutine before each write.
func (d *disk) write() {
	d.mu.Lock()
	d.blocked, d.since = true, d.now()
	d.n++
	d.takes = d.stall
	if d.every > 1 && d.n%d.every != 0 {
		d.takes = min(d.stall, 5*time.Millisecond)
	}
	d.mu.Unlock()
	for {
		d.mu.Lock()
		done := !d.blocked || d.open
		d.blocked = d.blocked && !done
		d.mu.Unlock()
		if done {
			return
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// setOpen opens or closes the gate.
func (d *disk) setOpen(open bool) {
	d.mu.Lock()
	d.open = open
	d.mu.Unlock()
}

// sync runs between two scans: it lets the write in progress finish once
// its stall has passed, and waits until the journal is blocked in a write
// or has a result for every change waiting.
func (d *disk) sync(tb testing.TB, t *table.Table, now time.Time) {
	deadline := time.Now().Add(10 * time.Second)
	for table.JournalPending(t) > table.JournalDone(t) {
		d.mu.Lock()
		blocked, since := d.blocked, d.since
		if blocked && !now.Before(since.Add(d.takes)) {
			d.blocked, blocked = false, false
		}
		d.mu.Unlock()
		if blocked {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatal("table bench: the journal took no write within 10 s")
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// handSetting is one row of BenchmarkTableHand.
type handSetting struct {
	sys          string
	press        bool
	touch, reply time.Duration
	stall        time.Duration
	every        int // the stall hits one write in every (0, 1: all)
	// late: one scan in lateEvery (0: ten) comes up to late after its
	// tick (a busy machine), at random; hasty: the hand is
	// sim.HastyHand.
	late      time.Duration
	lateEvery int
	hasty     bool
}

func (s handSetting) String() string {
	confirm := "settle"
	if s.press {
		confirm = "press"
	}
	fsync := fmt.Sprintf("fsync=%dms", s.stall.Milliseconds())
	if s.every > 1 {
		fsync += fmt.Sprintf("-1in%d", s.every)
	}
	out := fmt.Sprintf("%s/%s/touch=%dms/reply=%dms/%s", s.sys, confirm, s.touch.Milliseconds(),
		s.reply.Milliseconds(), fsync)
	if s.late > 0 {
		out += fmt.Sprintf("/late=%dms", s.late.Milliseconds())
	}
	if s.hasty {
		out += "/hasty"
	}
	return out
}

// tableHandStats are the figures of BenchmarkTableHand.
type tableHandStats struct {
	games, moves, ghosts, misses, mismatches int
	// latency, by what completed the move: from the hand letting go of
	// its last piece to the move published (journaled, then handed to
	// the LEDs and MQTT).
	latency map[string][]time.Duration
	// behind is the most moves recognized at once while the journal
	// had not made them durable yet.
	behind int
	first  string
}

// handTable is a table on the simulated set of a system, with a slow
// disk, driven by a sim.Hand in simulated time.
type handTable struct {
	*rig
	disk      *disk
	presses   []buttonAt
	published []time.Time
	mismatch  bool
	behind    int // the most moves waiting for the disk at once
	// With late scans: the time of the next scan, and the draws of its
	// lateness.
	late      time.Duration
	lateEvery int
	lateRand  *rand.Rand
	nextScan  time.Time
}

// buttonAt presses (or releases) a clock button at a time.
type buttonAt struct {
	at    time.Time
	name  string
	press bool
}

func newHandTable(tb testing.TB, s handSetting) *handTable {
	sys, err := systems.ByName(s.sys)
	if err != nil {
		tb.Fatal(err)
	}
	h := &handTable{late: s.late, lateEvery: cmp.Or(s.lateEvery, 10), lateRand: rand.New(rand.NewSource(1))}
	edit := func(o *table.Opts) {
		o.System = sys
		h.disk = &disk{stall: s.stall, every: s.every, now: o.Now}
		table.SlowJournal(o, h.disk.write)
		if s.press {
			o.Clock.Default = clock.MustParse("3600")
			o.Buttons = map[string]table.Button{"button:queen": {Kind: table.ButtonClockWhite},
				"button:knight": {Kind: table.ButtonClockBlack}}
		}
	}
	var buttons []string
	if s.press {
		buttons = []string{"queen", "knight"} // the clock's, as button:queen and button:knight
	}
	h.rig = newSystemRigWith(tb, sys, buttons, edit)
	tb.Cleanup(func() { h.disk.setOpen(true) }) // runs before the table's Close
	if s.press {
		// Black starts the clock.
		h.pressAt(h.b.Clock.Now(), rules.Black)
		h.wait(200 * time.Millisecond)
	}
	return h
}

// pressAt presses side's clock button at at, for 60 ms (150 ms with late
// scans: a press shorter than a stall of the scan loop can fall between
// two scans, unseen).
func (h *handTable) pressAt(at time.Time, side rules.Color) {
	hold := 60 * time.Millisecond
	if h.late > 0 {
		hold = 150 * time.Millisecond
	}
	name := "button:queen"
	if side == rules.Black {
		name = "button:knight"
	}
	h.presses = append(h.presses, buttonAt{at, name, true}, buttonAt{at.Add(hold), name, false})
	sort.SliceStable(h.presses, func(i, j int) bool { return h.presses[i].at.Before(h.presses[j].at) })
}

// tick is one scan a period later: the buttons due, the scan, the
// journal's disk, and what got published.
func (h *handTable) tick() { h.scan(h.b.Clock.Advance(h.opts.Sensors.Period)) }

// scan is one scan at now, the simulated clock's time.
func (h *handTable) scan(now time.Time) {
	for len(h.presses) > 0 && !now.Before(h.presses[0].at) {
		p := h.presses[0]
		h.presses = h.presses[1:]
		var err error
		if p.press {
			err = h.b.Set.Press(p.name)
		} else {
			err = h.b.Set.Release(p.name)
		}
		if err != nil {
			h.t.Fatal(err)
		}
	}
	h.tb.Tick()
	h.behind = max(h.behind, table.JournalPending(h.tb))
	h.disk.sync(h.t, h.tb, now)
	snap := h.tb.Snapshot()
	for len(h.published) < len(snap.Moves) {
		h.published = append(h.published, now)
	}
	if snap.Status.State == recognize.Mismatch {
		h.mismatch = true
	}
}

// wait lets d of simulated time pass, a scan every period. With late
// scans, the clock ends exactly d later (the hand acts on time) and scans
// come on a period's tick, one in h.lateEvery late by up to h.late; a late scan
// drops the ticks it missed, as a time.Ticker does.
func (h *handTable) wait(d time.Duration) {
	if h.late <= 0 {
		for end := h.b.Clock.Now().Add(d); h.b.Clock.Now().Before(end); {
			h.tick()
		}
		return
	}
	period := h.opts.Sensors.Period
	end := h.b.Clock.Now().Add(d)
	for {
		if h.nextScan.IsZero() {
			h.nextScan = h.b.Clock.Now().Add(period)
		}
		if h.nextScan.After(end) {
			h.b.Clock.Set(end)
			return
		}
		tick := h.nextScan
		h.b.Clock.Set(tick)
		h.scan(tick)
		next := tick.Add(period)
		if h.lateRand.Intn(h.lateEvery) == 0 {
			// This scan is late: the ticks it missed are dropped.
			at := next.Add(time.Duration(h.lateRand.Int63n(int64(h.late) + 1)))
			next = at
		}
		h.nextScan = next
	}
}

// choice is the piece letter to choose for m when another legal move puts
// a different piece on the same cells (a promotion, a placement), or 0.
func choice(p rules.Position, m rules.Move) byte {
	in := p.Info(m)
	for _, o := range p.LegalMoves(nil) {
		if oi := p.Info(o); o != m && oi.From == in.From && oi.To == in.To && oi.Touched == in.Touched && oi.Board == in.Board {
			long := p.Long(m)
			if strings.Contains(long, "@") {
				return long[0]
			}
			return long[len(long)-1]
		}
	}
	return 0
}

// playTableHandGame plays one random legal game of the setting with the
// hand through the table and counts what went wrong; a game stops at its
// first error.
func playTableHandGame(tb testing.TB, s handSetting, seed int64, plies int, st *tableHandStats) {
	h := newHandTable(tb, s)
	h.lateRand = rand.New(rand.NewSource(^seed))
	hand := sim.QuirkyHand(rand.New(rand.NewSource(seed)), s.touch, s.reply)
	if s.hasty {
		hand = sim.HastyHand(rand.New(rand.NewSource(seed)), s.touch, s.reply)
	}
	// A victim swapped for its captor faster than the debounce, with
	// several victims possible, cannot be told from the sensors: the
	// recognizer's own benchmark counts those apart.
	hand.FastSwap = 0
	st.games++
	pos := h.tb.Snapshot().Expected
	var played []string
	var prev []sim.Touch
	var letGo []time.Time
	fail := func(n *int, what string) {
		*n++
		if st.first == "" {
			var got []string
			for _, m := range h.tb.Snapshot().Moves {
				got = append(got, m.Move)
			}
			st.first = fmt.Sprintf("seed %d: %s: played %q, published %q, board %s %q", seed, what, played, got,
				h.tb.Snapshot().Status.State, h.tb.Snapshot().Status.Reason)
		}
	}
	// ghost reports (and counts) a published move the hand did not make.
	ghost := func() bool {
		for i, m := range h.tb.Snapshot().Moves {
			if i >= len(played) || m.Move != played[i] {
				fail(&st.ghosts, "ghost")
				return true
			}
		}
		return false
	}
	for ply := 0; ply < plies && pos.Status() == rules.Ongoing; ply++ {
		moves := pos.LegalMoves(nil)
		m := moves[hand.Rand.Intn(len(moves))]
		touches := hand.Move(pos, m)
		if prev != nil {
			h.wait(hand.Pause(prev, touches))
		}
		for _, tc := range touches {
			h.wait(tc.Wait)
			if err := h.b.Set.Apply(tc); err != nil {
				tb.Fatal(err)
			}
		}
		letGo = append(letGo, h.b.Clock.Now())
		if s.press {
			h.pressAt(h.b.Clock.Now().Add(30*time.Millisecond+time.Duration(hand.Rand.Int63n(int64(120*time.Millisecond)+1))), pos.Turn())
		}
		played = append(played, pos.Long(m))
		if piece := choice(pos, m); piece != 0 {
			// The player chooses the piece (a button, the page) once the
			// board asks.
			deadline := h.b.Clock.Now().Add(3 * time.Second)
			for h.tb.Snapshot().Status.State != recognize.NeedsChoice && h.b.Clock.Now().Before(deadline) {
				h.tick()
			}
			h.disk.setOpen(true) // the command waits for the journal
			_, err := h.tb.Exec(table.Promote{Piece: piece})
			h.disk.setOpen(false)
			if err != nil {
				fail(&st.misses, "choice: "+err.Error())
				return
			}
		}
		st.moves++
		prev = touches
		pos = pos.Play(m)
		if ghost() {
			return
		}
		if h.mismatch {
			fail(&st.mismatches, "mismatch")
			return
		}
	}
	// The last move settles or is pressed for; then the journal writes
	// everything it holds.
	h.wait(3*time.Second + time.Duration(table.JournalPending(h.tb))*s.stall)
	st.behind = max(st.behind, h.behind)
	if ghost() {
		return
	}
	if n := len(h.tb.Snapshot().Moves); n < len(played) {
		fail(&st.misses, "miss")
		return
	}
	h.disk.setOpen(true)
	h.drain()
	i := 0
	for _, e := range h.rec.events() {
		if e.Kind != table.Moved || i >= len(h.published) {
			continue
		}
		st.latency[e.By.String()] = append(st.latency[e.By.String()], h.published[i].Sub(letGo[i]))
		i++
	}
}

var tableHandGames = flag.Int("hand.games", 0, "games per setting of BenchmarkTableHand (0: b.N)")

// BenchmarkTableHand plays random legal games (one per iteration, up to 60
// plies) of every system a set plays, with sim.QuirkyHand, through the
// whole table (the simulated set, the scanner, the recognizer, a journal
// whose every fsync stalls, the sinks) in simulated time, by settling and
// by clock presses, and reports per
// setting ghosts (a published move the hand did not make), misses (a move
// never published), mismatches, the most moves waiting for the disk at
// once, and percentiles of the latency from the hand letting go of a move
// to the move published, by what completed it. Fsync stalls: none, 200 ms
// on every write, 500 ms on one write in ten (the others 5 ms), 500 ms on
// every write. Run:
//
//	go test ./table -run - -bench TableHand -benchtime 100x
func BenchmarkTableHand(b *testing.B) {
	var settings []handSetting
	for _, sys := range []string{"st3d", "st3d+V.A1,V.A2,V.A3", "first-contact", "millennium"} {
		for _, d := range []struct {
			stall time.Duration
			every int
		}{{0, 0}, {200 * time.Millisecond, 0}, {500 * time.Millisecond, 10}, {500 * time.Millisecond, 0}} {
			settings = append(settings,
				handSetting{sys: sys, touch: 200 * time.Millisecond, stall: d.stall, every: d.every},
				handSetting{sys: sys, touch: 200 * time.Millisecond, reply: time.Second, stall: d.stall, every: d.every})
			settings = append(settings,
				handSetting{sys: sys, press: true, touch: 200 * time.Millisecond, stall: d.stall, every: d.every})
		}
	}
	benchTableHand(b, settings)
}

// benchTableHand runs BenchmarkTableHand's games for each setting and
// reports its figures.
func benchTableHand(b *testing.B, settings []handSetting) {
	for _, s := range settings {
		b.Run(s.String(), func(b *testing.B) {
			st := tableHandStats{latency: map[string][]time.Duration{}}
			n := b.N
			if *tableHandGames > 0 {
				n = *tableHandGames
			}
			for i := 0; i < n; i++ {
				playTableHandGame(b, s, int64(i), 60, &st)
			}
			b.ReportMetric(float64(st.games), "games")
			b.ReportMetric(float64(st.moves), "moves")
			b.ReportMetric(float64(st.ghosts), "ghosts")
			b.ReportMetric(float64(st.misses), "misses")
			b.ReportMetric(float64(st.mismatches), "mismatches")
			b.ReportMetric(float64(st.behind), "disk-behind-max")
			for by, d := range st.latency {
				sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
				b.ReportMetric(float64(len(d)), by+"-n")
				b.ReportMetric(float64(d[len(d)/2])/1e6, by+"-p50-ms")
				b.ReportMetric(float64(d[len(d)*99/100])/1e6, by+"-p99-ms")
				b.ReportMetric(float64(d[len(d)-1])/1e6, by+"-max-ms")
			}
			if st.first != "" {
				b.Log(st.first)
			}
		})
	}
}
