package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/systems"
)

func init() {
	register("loadtest", "simulate N sets playing random games against a broker; report lost moves and latency", runLoadtest)
}

// loadOpts configure a load test.
type loadOpts struct {
	Broker, Prefix, Username, Password string
	Variant                            string
	Boards, Moves                      int           // sets, and moves per set
	Duration                           time.Duration // bound of the whole run
	Interval                           time.Duration // between two moves of a set
	Drain                              time.Duration // wait for the last moves
	AllowRemote                        bool
	Log                                io.Writer // progress; nil for none
	// Views are the base URLs of tridboard view processes following the
	// sets (http://127.0.0.1:8080); Viewers the spectators spread over
	// them, each reading the wall's event stream (/events) as a page does.
	Views   []string
	Viewers int
	// BoardViewers are spectators of single boards (their pages' streams,
	// /boards/<id>/events), spread over the sets and the views.
	BoardViewers int
	// CheckBroker is where the checking subscriber connects (default
	// Broker): a node the test keeps alive, when one is killed.
	CheckBroker string
	// PerSet adds a line per set to the report.
	PerSet bool
	// Opening, when set, opens the hall before play, for at most this
	// long: every set connected (and its standby up, given several
	// brokers) and its game's start published, and every spectator showing
	// every set's game. The latencies are then those of a hall that is
	// open, not of a thousand connections made in the same second.
	Opening time.Duration
	// Halfway, if set, runs once when half the moves were sent (a node
	// killed mid-run, in the hall benchmark).
	Halfway func()
	// Report, if set, sees the report before the sets disconnect (to
	// tell where they are when something failed).
	Report func(loadReport)
}

// loadReport is what a load test measured.
type loadReport struct {
	Boards, Sent, Received int
	Lost, Duplicated       int
	OutOfOrder             int
	P50, P99, Max          time.Duration // publish (enqueue) to receive
	Elapsed                time.Duration
	// The viewers: how many, how many ended with every set's last move
	// (Whole), the board/viewer pairs that did not (Behind), moves seen
	// going backwards (Reordered), and enqueue-to-seen latency of the moves
	// they saw (a viewer reads the wall's summaries, so it may skip a move
	// that the next one overtook).
	Viewers, Whole, Behind, Reordered int
	// Dropped counts the summaries older than a spectator had, from the
	// view it moved to (behind the one before), dropped as a page drops
	// them; Reordered those a view sent older than it had sent itself.
	Dropped          int
	VP50, VP99, VMax time.Duration
	// Stayed counts the spectators that kept their first view's stream
	// (their view was not stopped), StayedP99 their p99.
	Stayed    int
	StayedP99 time.Duration
	// BehindBoards are the sets some spectator ended without the last
	// move of (sorted), to tell what failed.
	BehindBoards []string
	// Final is each set's last move ("game/seq").
	Final map[string]string
	// Sets is a line a set, with PerSet.
	Sets []string
}

func (r loadReport) String() string {
	s := fmt.Sprintf("%d sets: %d moves sent, %d received once, %d lost, %d duplicated, %d out of order; "+
		"publish-to-receive latency p50 %v, p99 %v, max %v; %v",
		r.Boards, r.Sent, r.Received, r.Lost, r.Duplicated, r.OutOfOrder,
		r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Max.Round(10*time.Microsecond), r.Elapsed.Round(time.Millisecond))
	if r.Viewers > 0 {
		s += fmt.Sprintf("\n%d viewers: %d with every set's last move, %d boards behind, %d reordered, %d older from another view dropped; publish-to-view latency p50 %v, p99 %v, max %v",
			r.Viewers, r.Whole, r.Behind, r.Reordered, r.Dropped, r.VP50.Round(time.Millisecond), r.VP99.Round(time.Millisecond), r.VMax.Round(time.Millisecond))
		if r.Stayed < r.Viewers {
			s += fmt.Sprintf("; the %d that kept their view: p99 %v", r.Stayed, r.StayedP99.Round(time.Millisecond))
		}
	}
	for _, l := range r.Sets {
		s += "\n" + l
	}
	return s
}

// loadTest runs the sets and the subscriber and reports.
func loadTest(ctx context.Context, o loadOpts) (loadReport, error) {
	if err := o.check(); err != nil {
		return loadReport{}, err
	}
	if o.Drain <= 0 {
		o.Drain = 10 * time.Second
	}
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, o.Duration+o.Drain)
	defer cancel()
	start := time.Now()
	dir, err := os.MkdirTemp("", "tridboard-loadtest-")
	if err != nil {
		return loadReport{}, err
	}
	defer os.RemoveAll(dir)
	sys, _ := systems.ByName(o.Variant)

	chk := &loadCheck{last: map[string]int{}, seen: map[string]bool{}, cond: make(chan struct{}, 1),
		dupsOf: map[string]int{}, oooOf: map[string]int{}}
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Username, fo.Password, fo.Prefix = cmp.Or(o.CheckBroker, o.Broker), o.Username, o.Password, o.Prefix
	fo.Name = "loadcheck"
	sub, err := mqtt.Follow(fo, mqtt.Handlers{Move: func(board string, mv protocol.Move) { chk.move(board, mv, time.Now()) }})
	if err != nil {
		return loadReport{}, fmt.Errorf("subscriber: %w", err)
	}
	defer sub.Close()
	rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
	defer rcancel()
	if err := sub.Ready(rctx); err != nil {
		return loadReport{}, fmt.Errorf("subscriber: %w", err)
	}

	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	sets := make([]*loadSet, o.Boards)
	for i := range sets {
		mo := mqtt.DefaultOpts()
		mo.Broker, mo.Username, mo.Password, mo.Prefix = o.Broker, o.Username, o.Password, o.Prefix
		mo.BoardID = "load-" + strconv.Itoa(i+1)
		mo.ClientID = fmt.Sprintf("tridboard-load-%d-%d", os.Getpid(), i+1)
		mo.StateDir = filepath.Join(dir, mo.BoardID)
		mo.Discovery, mo.Logger = "", quiet
		if err := os.MkdirAll(mo.StateDir, 0o700); err != nil {
			return loadReport{}, err
		}
		cli, err := mqtt.New(mo, nil)
		if err != nil {
			return loadReport{}, fmt.Errorf("set %d: %w", i+1, err)
		}
		s := &loadSet{id: mo.BoardID, cli: cli, sys: sys, rng: rand.New(rand.NewPCG(uint64(i), 42))}
		s.newGame(time.Now())
		sets[i] = s
	}
	defer func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		var wg sync.WaitGroup
		for _, s := range sets {
			wg.Add(1)
			go func() { defer wg.Done(); s.cli.Close(cctx) }()
		}
		wg.Wait()
	}()
	logf("loadtest: %d sets on %s, %d moves each, every %v", o.Boards, o.Broker, o.Moves, o.Interval)
	var views *viewLoad
	var viewWG sync.WaitGroup
	viewCtx, stopViews := context.WithCancel(ctx)
	defer func() { stopViews(); viewWG.Wait() }()
	if o.Viewers+o.BoardViewers > 0 {
		views = newViewLoad()
		var ids []string
		for _, s := range sets {
			s.sent = views.sentMove
			ids = append(ids, s.id)
		}
		views.start(viewCtx, o.Views, o.Viewers, nil, &viewWG)
		views.start(viewCtx, o.Views, o.BoardViewers, ids, &viewWG)
		logf("loadtest: %d viewers of the wall, %d of single boards, on %s", o.Viewers, o.BoardViewers, strings.Join(o.Views, ", "))
	}
	if o.Opening > 0 {
		took, err := openHall(ctx, o, sets, views)
		if err != nil {
			return loadReport{}, err
		}
		logf("loadtest: the hall opened in %v", took.Round(time.Millisecond))
	}
	var total atomic.Int64
	var halfway sync.Once

	// Each set moves every Interval, the sets spread over it.
	playCtx, stopPlay := context.WithTimeout(ctx, o.Duration)
	defer stopPlay()
	var wg sync.WaitGroup
	var errOnce sync.Once
	var playErr error
	for i, s := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTimer(o.Interval * time.Duration(i) / time.Duration(len(sets)))
			defer t.Stop()
			for s.n < o.Moves {
				select {
				case <-playCtx.Done():
					return
				case <-t.C:
				}
				if _, err := s.step(time.Now()); err != nil {
					errOnce.Do(func() { playErr = fmt.Errorf("set %s: %w", s.id, err) })
					return
				}
				if o.Halfway != nil && total.Add(1) == int64(o.Boards*o.Moves/2) {
					halfway.Do(func() { go o.Halfway() })
				}
				t.Reset(o.Interval)
			}
		}()
	}
	wg.Wait()
	sent := 0
	for _, s := range sets {
		sent += s.n
	}
	// Wait for the moves in flight.
	drain := time.NewTimer(o.Drain)
	defer drain.Stop()
	for {
		chk.mu.Lock()
		got := chk.received
		chk.mu.Unlock()
		if got >= sent {
			break
		}
		select {
		case <-chk.cond:
		case <-drain.C:
			logf("loadtest: %d moves still missing after %v", sent-got, o.Drain)
			goto report
		case <-ctx.Done():
			goto report
		}
	}
report:
	final := map[string]string{}
	for _, s := range sets {
		final[s.id] = s.game + "/" + strconv.Itoa(s.seq)
	}
	if views != nil {
		// The viewers see the last moves a little later than MQTT does.
		for deadline := time.Now().Add(o.Drain); !views.caughtUp(final) && time.Now().Before(deadline) && ctx.Err() == nil; {
			time.Sleep(20 * time.Millisecond)
		}
	}
	chk.mu.Lock()
	defer chk.mu.Unlock()
	r := loadReport{Boards: o.Boards, Sent: sent, Received: chk.received, Lost: sent - chk.received,
		Duplicated: chk.dups, OutOfOrder: chk.ooo, Elapsed: time.Since(start)}
	if r.Lost < 0 {
		r.Lost = 0
	}
	r.Final = final
	if n := len(chk.lat); n > 0 {
		l := slices.Clone(chk.lat)
		slices.Sort(l)
		r.P50, r.P99, r.Max = l[n/2], l[min(n-1, n*99/100)], l[n-1]
	}
	if views != nil {
		views.report(final, &r)
	}
	for _, s := range sets {
		if err := s.cli.Stats().LastError; err != nil && r.Lost > 0 {
			// Why moves were lost: a broker beyond its limits says so.
			logf("loadtest: %s: %v", s.id, err)
			break
		}
	}
	if o.Report != nil {
		o.Report(r)
	}
	if o.PerSet {
		for _, s := range sets {
			k := s.id + "/" + s.game
			r.Sets = append(r.Sets, fmt.Sprintf("  %s: %d sent, last seq received %d, %d duplicated, %d out of order",
				s.id, s.n, chk.last[k], chk.dupsOf[s.id], chk.oooOf[s.id]))
		}
	}
	return r, playErr
}

// openHall connects every set (and its standby, given several brokers),
// publishes its game's start, and waits until every spectator shows every
// set's game, within o.Opening. It returns how long that took.
func openHall(ctx context.Context, o loadOpts, sets []*loadSet, views *viewLoad) (time.Duration, error) {
	start := time.Now()
	octx, cancel := context.WithTimeout(ctx, o.Opening)
	defer cancel()
	cluster := strings.Contains(o.Broker, ",")
	starts := map[string]string{}
	for _, s := range sets {
		if err := s.cli.WaitConnected(octx); err != nil {
			return 0, fmt.Errorf("opening the hall: set %s: %w", s.id, err)
		}
		s.publishState(s.g.Position(), time.Now())
		starts[s.id] = s.game + "/0"
	}
	for {
		standbys := true
		for _, s := range sets {
			if cluster && !s.cli.Stats().Standby {
				standbys = false
				break
			}
		}
		if standbys && (views == nil || views.caughtUp(starts)) {
			return time.Since(start), nil
		}
		select {
		case <-octx.Done():
			return 0, fmt.Errorf("opening the hall: not every set connected, with its standby, and shown to every spectator within %v", o.Opening)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
