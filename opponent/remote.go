package opponent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tridboard/tridboard/internal/setting"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/trust"
)

// RemoteOpts connect a Remote to the broker both sets publish on.
type RemoteOpts struct {
	// Broker is the broker's URL; Username and Password log in (the
	// account must read the other set's topics and publish this set's
	// <prefix>/<board>/remote).
	Broker, Username, Password string
	// Prefix is the topics' first level(s); Local is this set's board id.
	Prefix, Local string
	// Log receives what an operator should know; nil means slog.Default().
	Log *slog.Logger
	// CommandTimeout bounds one command to the table.
	CommandTimeout time.Duration
	// RemoteSettings are the configuration file's: Grace, how long the
	// other set may be offline, with its side to move, before its clock
	// is paused (0: DefaultGrace).
	RemoteSettings
	// Now is the clock of the grace period (nil: time.Now); Tick wakes the
	// Remote to look at it (nil: every 200 ms of real time).
	Now  func() time.Time
	Tick <-chan time.Time
	// Checker checks the other set's state and record before they are
	// believed (trust.Checker: signed by the key trusted for it, not older
	// than the last, not oversized); nil believes them as they come.
	// Signer signs this set's record.
	Checker *trust.Checker
	Signer  *trust.Key
}

// DefaultGrace is RemoteOpts.Grace when none is given.
const DefaultGrace = 10 * time.Second

// RemoteSettings are remote play's settings in the configuration file
// (the mqtt section's remote_grace), checked by Validate.
type RemoteSettings struct {
	// Grace is how long the other set may be offline, with its side to
	// move, before its clock is paused.
	Grace time.Duration `yaml:"remote_grace"`
}

// DefaultRemoteSettings: a grace of DefaultGrace.
func DefaultRemoteSettings() RemoteSettings { return RemoteSettings{Grace: DefaultGrace} }

// Validate checks the settings of the configuration file: remote_grace 1s
// to 1h. Its error is setting.Problems, keyed by the yaml names.
func (s *RemoteSettings) Validate() error {
	var ps setting.Problems
	ps.Between("remote_grace", s.Grace, time.Second, time.Hour)
	return ps.Err("opponent")
}

// Remote plays the side of another set. The two sets pair their games
// first: each publishes a retained record of its side of the game
// (protocol.RemoteRecord: its game id, the other set, the other set's game it
// is paired with) and pairs with a game of the other set that names it and
// is paired with nothing or with this game; a set that finds the other in
// another game (the previous one, before a rematch) says so and waits. Once
// paired it follows the other set's retained state (the whole game so far,
// published after every change) and plays here each move of the other
// side that this game lacks, with the other set's clock reading (the set
// of the side that moved is authoritative for its clock); results
// (resignations, draws by agreement or claim, flags) and draw offers and
// declines travel the same way. It compares both games move by move and
// reports a desync.
//
// It follows the other set's availability: while the other set is
// offline the players are shown so (Snapshot.Peer: the state, an event,
// the absent side's king on the LEDs), and after Grace with the absent
// side to move its clock is paused; it resumes when the other set is back,
// and the moves it missed reach it from this set's retained state. A set
// that restarts in a paired game runs its clock again (paused since the
// restart) once the other set is there.
//
// Since it works from the whole game each time, nothing is lost or doubled
// across a broker outage or a restart of either set: a move is played here
// when, and only when, this game has every move before it.
type Remote struct {
	spec game.Opponent
	do   Doer
	o    RemoteOpts
	f    *mqtt.Follower

	mu       sync.Mutex
	ours     *table.Snapshot
	theirs   *protocol.State
	theirRec *protocol.RemoteRecord
	online   bool
	heard    bool // availability heard at least once
	offSince time.Time
	peerGame string // the other set's game paired with this one
	reported string
	// desync is what differs between the two games while they differ
	// (Next's problem): a lasting state of the set, unpaired until both
	// games agree again (issue 33).
	desync    string
	published string // the record last published
	shown     table.PeerState
	shownSet  bool
	paused    bool  // this Remote paused the clock for the absent side
	myOffer   int   // ply of this side's standing offer (-1 none)
	applied   int   // ply of the other side's offer played here (-1 none)
	seen      bool  // the offer played here was seen standing
	declined  int   // ply of the other side's offer declined here (-1 none)
	answered  int   // ply of this side's offer whose decline was played here
	asked     int64 // the other side's take-back request played here (its ID)
	accepted  int64 // the ID of the take-back accepted here that the other set has yet to make
	seenTB    int64 // the ID of the last answer of this side seen
	restarted bool  // this set's clock is paused since its restart
	// A desync resolved by this set's players (table.Resolve): resolved
	// is the ID of the last resolution carried out; restore this set's
	// restore of the last common position, asked of the other set until
	// it says it restored it too; restoredFor the ID of the other set's
	// last restore carried out here.
	resolved    int64
	restore     *protocol.RemoteRestore
	restoredFor int64
	// stale is the other set's game as it stood when a restore was made
	// (its moves, in long form), beyond the restored position: its moves
	// there are not played here until its state changes (the record of a
	// restore may come before the state that follows it).
	stale     string
	staleKeep int

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

// NewRemote starts following spec.Set's game for the table do, whose game
// snap is. It connects in the background and keeps reconnecting.
func NewRemote(spec game.Opponent, snap *table.Snapshot, do Doer, o RemoteOpts) (*Remote, error) {
	if spec.Set == "" {
		return nil, errors.New("opponent: remote: no set named")
	}
	if spec.Set == o.Local {
		return nil, fmt.Errorf("opponent: remote: set %q cannot play against itself", spec.Set)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = 10 * time.Second
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if _, err := mqtt.NewTopics(o.Prefix, o.Local); err != nil {
		return nil, fmt.Errorf("opponent: remote: %w", err)
	}
	r := &Remote{spec: spec, do: do, o: o, ours: snap, myOffer: -1, applied: -1, declined: -1,
		answered: -1, offSince: o.Now(), wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Username, fo.Password, fo.Prefix = o.Broker, o.Username, o.Password, o.Prefix
	fo.Boards, fo.ClientID = []string{spec.Set}, "tridboard-"+o.Local+"-follows-"+spec.Set
	fo.RetryMin, fo.RetryMax = 500*time.Millisecond, 2*time.Second // the players wait for the other set
	fo.Warn = func(msg string) { o.Log.Warn("opponent: remote: " + msg) }
	fo.Checker, fo.Signer = o.Checker, o.Signer
	f, err := mqtt.Follow(fo, mqtt.Handlers{State: r.onState, Remote: r.onRecord, Availability: r.onAvailability,
		Connected: func() {
			r.mu.Lock()
			r.published = "" // publish the record again on this connection
			r.mu.Unlock()
			r.poke()
		}})
	if err != nil {
		return nil, fmt.Errorf("opponent: remote: %w", err)
	}
	r.f = f
	go r.loop()
	return r, nil
}

func (r *Remote) onState(_ string, s protocol.State) {
	if err := s.Supported(); err != nil {
		r.o.Log.Warn("opponent: remote: the other set's state is ignored", "set", r.spec.Set, "err", err)
		return
	}
	r.mu.Lock()
	r.theirs = &s
	r.mu.Unlock()
	r.poke()
}

func (r *Remote) onRecord(_ string, rec protocol.RemoteRecord) {
	r.mu.Lock()
	r.theirRec = &rec
	r.mu.Unlock()
	r.poke()
}

func (r *Remote) onAvailability(_ string, online bool) {
	r.mu.Lock()
	if online != r.online || !r.heard {
		r.online, r.heard = online, true
		if !online {
			r.offSince = r.o.Now()
		}
	}
	r.mu.Unlock()
	r.poke()
}

// Handle follows this table.
func (r *Remote) Handle(e table.Event) {
	r.mu.Lock()
	r.ours = e.Snap
	if e.Kind == table.ClockChanged && strings.Contains(e.Detail, "restart") {
		r.restarted = true
	}
	r.mu.Unlock()
	r.poke()
}

func (r *Remote) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Remote) loop() {
	defer close(r.done)
	tick := r.o.Tick
	if tick == nil {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-r.stop:
			return
		case <-r.wake:
		case <-tick:
		}
		r.reconcile()
	}
}

// mySide is the side this set's players play.
func (r *Remote) mySide() rules.Color { return r.spec.Side.Other() }

// reconcile pairs the games, then brings this one up to the other's:
// moves, result, draw offers; and watches the other set's presence.
func (r *Remote) reconcile() {
	r.mu.Lock()
	ours, theirs, rec := r.ours, r.theirs, r.theirRec
	online, heard, offSince := r.online, r.heard, r.offSince
	restarted := r.restarted // with ours: the snapshot that came with the flag, or a later one
	r.mu.Unlock()
	if ours == nil {
		return
	}
	r.trackOffers(ours)
	r.publishRecord(ours)
	paired, why := r.pair(ours, theirs, rec)
	if why == "" {
		why = r.desync
	}
	r.presence(ours, paired, why, online, heard, offSince, restarted)
	if !paired || theirs == nil || theirs.Game != r.peerGame {
		return
	}
	if a := ours.TakeBackAnswer; a != nil && a.ID != r.seenTB {
		r.seenTB = a.ID
		if a.Accept {
			r.accepted = a.ID
		}
	}
	if r.accepted != 0 {
		if a := ours.TakeBackAnswer; a != nil && a.ID == r.accepted && len(theirs.Moves) >= a.At {
			// Accepted here, not yet taken back there: its moves taken
			// back here are not to be played again.
			return
		}
		r.accepted = 0
	}
	if r.restoring(ours, theirs, rec) {
		return
	}
	next, problem := Next(ours, theirs, r.spec.Side)
	if problem != r.desync {
		// The games came to differ, or agree again: both sets say so
		// until it changes (the state's peer: not paired, the desync).
		r.desync = problem
		why = problem
		r.presence(ours, paired, why, online, heard, offSince, restarted)
	}
	if problem != "" {
		r.report(problem)
		r.resolve(ours, theirs)
		return
	}
	if next != "" {
		r.play(ours, theirs, next)
		return
	}
	r.takeBacks(ours, rec)
	if len(theirs.Moves) != len(ours.Moves) {
		return // the other set has yet to get this set's moves
	}
	r.result(ours, theirs)
	r.offers(ours, rec)
}

// pair binds this game to the other set's, or says why it cannot yet.
func (r *Remote) pair(ours *table.Snapshot, theirs *protocol.State, rec *protocol.RemoteRecord) (bool, string) {
	if r.peerGame != "" {
		if theirs != nil && theirs.Game != r.peerGame {
			return true, fmt.Sprintf("set %s left this game for another (%s)", r.spec.Set, theirs.Game)
		}
		return true, ""
	}
	switch {
	case rec == nil || theirs == nil:
		return false, fmt.Sprintf("waiting for set %s to start its game against this one", r.spec.Set)
	case rec.Game != theirs.Game:
		return false, "" // the record and the state cross: the next one settles it
	case rec.Peer != r.o.Local || rec.Side != r.spec.Side.String():
		return false, fmt.Sprintf("set %s is in another game (against %s as %s): waiting for it to start a new game against this one as %s",
			r.spec.Set, or(rec.Peer, "nobody"), rec.Side, r.spec.Side)
	case rec.PeerGame != "" && rec.PeerGame != ours.Game:
		return false, fmt.Sprintf("set %s is in another game (%s, paired with game %s): waiting for it to start a new game",
			r.spec.Set, rec.Game, rec.PeerGame)
	}
	r.peerGame = rec.Game
	r.o.Log.Info("opponent: remote: games paired", "set", r.spec.Set, "game", ours.Game, "peer_game", rec.Game)
	r.publishRecord(ours)
	return true, ""
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// publishRecord publishes this side's record when it changed.
func (r *Remote) publishRecord(ours *table.Snapshot) {
	rec := r.record(ours)
	b, _ := json.Marshal(rec)
	r.mu.Lock()
	same := string(b) == r.published
	r.mu.Unlock()
	if same || !r.f.Connected() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.o.CommandTimeout)
	defer cancel()
	if r.f.PublishRemote(ctx, r.o.Local, rec) != nil {
		return // published again on the next wake
	}
	r.mu.Lock()
	r.published = string(b)
	r.mu.Unlock()
}

// record is this side's record of the game ours.
func (r *Remote) record(ours *table.Snapshot) protocol.RemoteRecord {
	rec := protocol.RemoteRecord{Game: ours.Game, Peer: r.spec.Set, Side: r.mySide().String(), PeerGame: r.peerGame,
		DrawOffer: r.myOffer, DrawDeclined: r.declined}
	if tb := ours.TakeBack; tb != nil && !tb.ByPeer {
		rec.TakeBack = &protocol.RemoteTakeBack{Plies: tb.Plies, At: tb.At, ID: tb.ID}
	}
	if a := ours.TakeBackAnswer; a != nil {
		rec.TakeBackAnswer = &protocol.RemoteTakeBackAnswer{At: a.At, ID: a.ID, Accept: a.Accept}
	}
	rec.Restore, rec.Restored = r.restore, r.restoredFor
	return rec
}

// resolve carries out this set's players' resolution of the desync
// (ours.Resolve, once): accept the other set's record (this game becomes
// it: table.AdoptRecord), or restore the last position both games share
// here and ask the other set to restore it too (the record's Restore).
func (r *Remote) resolve(ours *table.Snapshot, theirs *protocol.State) {
	res := ours.Resolve
	if res == nil || res.ID == r.resolved {
		return
	}
	r.resolved = res.ID
	keep, ok := common(ours, theirs)
	if !ok {
		r.report(fmt.Sprintf("desync with set %s: the games are of other rules or start positions: start a new game", r.spec.Set))
		return
	}
	switch res.Action {
	case table.ResolveAccept:
		c := table.AdoptRecord{Game: ours.Game, Keep: keep, Moves: theirs.Moves[keep:]}
		if theirs.Clock != nil && ours.Clock != nil {
			c.Reading = &clock.Reading{WhiteMS: theirs.Clock.WhiteMS, BlackMS: theirs.Clock.BlackMS}
		}
		if _, err := r.command(c); err != nil {
			r.report(fmt.Sprintf("desync with set %s: its record cannot be taken here: %v", r.spec.Set, err))
			return
		}
		r.o.Log.Info("opponent: remote: the other set's record accepted", "set", r.spec.Set, "kept", keep)
	case table.ResolveRestore:
		c := table.PeerRestore{Game: ours.Game, Keep: keep, By: "asked on this set"}
		if _, err := r.command(c); err != nil {
			r.report(fmt.Sprintf("desync with set %s: the position after move %d cannot be restored: %v", r.spec.Set, keep, err))
			return
		}
		r.restore = &protocol.RemoteRestore{Keep: keep, ID: res.ID}
		r.holdStale(theirs, keep)
		r.o.Log.Info("opponent: remote: the last common position restored, asked of the other set", "set", r.spec.Set, "moves", keep)
		r.publishRecord(ours)
	}
}

// restoring carries out here the other set's restore of the last common
// position (its record's Restore, once), and holds this game as it is
// while this set's restore waits for the other set to carry it out, and
// while the other set's state is the one from before a restore (its moves
// beyond the restored position are not played here). It reports true
// while the games are to be left alone.
func (r *Remote) restoring(ours *table.Snapshot, theirs *protocol.State, rec *protocol.RemoteRecord) bool {
	if rec != nil && rec.Game == r.peerGame {
		if rs := rec.Restore; rs != nil && rs.ID != r.restoredFor {
			c := table.PeerRestore{Game: ours.Game, Keep: rs.Keep, By: "asked by set " + r.spec.Set}
			if _, err := r.command(c); err != nil {
				r.report(fmt.Sprintf("desync with set %s: its restore of the position after move %d cannot be made here: %v",
					r.spec.Set, rs.Keep, err))
			}
			r.restoredFor = rs.ID
			r.holdStale(theirs, rs.Keep)
			r.publishRecord(ours)
			return true
		}
	}
	if r.restore != nil {
		if rec == nil || rec.Restored != r.restore.ID {
			return true
		}
		r.restore = nil
		r.publishRecord(ours)
	}
	if r.stale != "" {
		if len(theirs.Moves) > r.staleKeep && strings.Join(theirs.Moves, " ") == r.stale {
			return true
		}
		r.stale = ""
	}
	return false
}

// holdStale keeps the other set's game theirs from being played here
// beyond its first keep moves until its state changes (restoring).
func (r *Remote) holdStale(theirs *protocol.State, keep int) {
	r.stale, r.staleKeep = "", keep
	if len(theirs.Moves) > keep {
		r.stale = strings.Join(theirs.Moves, " ")
	}
}

// common is the number of moves both games share, from the first; false
// when they are of other rules or start positions.
func common(ours *table.Snapshot, theirs *protocol.State) (int, bool) {
	start := ours.Start.String()
	if start == ours.System.Start().String() {
		start = ""
	}
	if theirs.Start != start || theirs.Variant != ours.System.Name() {
		return 0, false
	}
	n := 0
	for n < len(ours.Moves) && n < len(theirs.Moves) && ours.Moves[n].Move == theirs.Moves[n] {
		n++
	}
	return n, true
}

// trackOffers follows the draw offers standing in this game: this side's
// (for the record) and a decline here of the other side's.
func (r *Remote) trackOffers(ours *table.Snapshot) {
	n := len(ours.Moves)
	mine := ours.HasDrawOffer && ours.DrawOffer == r.mySide()
	switch {
	case mine && r.myOffer < 0:
		r.myOffer = n
	case !mine:
		r.myOffer = -1
	}
	theirs := ours.HasDrawOffer && ours.DrawOffer == r.spec.Side
	switch {
	case r.applied != n:
	case theirs:
		r.seen = true
	case r.seen && ours.Result == rules.NoResult:
		r.declined = n // the players here declined the offer played here
	}
}

// play plays the other side's move next here.
func (r *Remote) play(ours *table.Snapshot, theirs *protocol.State, next string) {
	c := table.PlayMove{Move: next, Game: ours.Game, Ply: len(ours.Moves) + 1}
	if theirs.Clock != nil && ours.Clock != nil && len(theirs.Moves) == len(ours.Moves)+1 {
		// The other set's clock right after its move: authoritative, as
		// far as the time control allows.
		if err := ClockAllowed(ours, theirs.Clock, r.spec.Side); err != nil {
			r.refused(fmt.Sprintf("set %s's clock after its move %s is refused (this set keeps its own): %v", r.spec.Set, next, err))
		} else {
			c.Reading = &clock.Reading{WhiteMS: theirs.Clock.WhiteMS, BlackMS: theirs.Clock.BlackMS}
		}
	}
	_, err := r.command(c)
	switch {
	case err == nil:
		r.o.Log.Info("opponent: remote move", "set", r.spec.Set, "move", next)
	case errors.Is(err, table.ErrNotInSync), errors.Is(err, table.ErrStale):
		// The players here are busy, or the game moved on: the next change
		// of the board wakes us.
	default:
		r.report(fmt.Sprintf("desync with set %s: its move %s cannot be played here: %v", r.spec.Set, next, err))
	}
}

// result records here the other set's result of the same game.
func (r *Remote) result(ours *table.Snapshot, theirs *protocol.State) {
	res := rules.Result(theirs.Result)
	if res == "" || res == rules.NoResult {
		return
	}
	if ours.Result != rules.NoResult {
		if ours.Result != res {
			r.report(fmt.Sprintf("desync with set %s: the game ended %s (%s) here, %s (%s) there", r.spec.Set,
				ours.Result, ours.Reason, res, theirs.Reason))
		}
		return
	}
	loser := rules.White
	if res == rules.WhiteWins {
		loser = rules.Black
	}
	if err := r.resultAllowed(ours, theirs, res, loser); err != nil {
		r.refused(fmt.Sprintf("set %s's result %s (%s) is refused: %v", r.spec.Set, res, theirs.Reason, err))
		return
	}
	var cmds []table.Command
	switch game.Reason(theirs.Reason) {
	case game.ReasonResignation:
		cmds = []table.Command{table.Resign{Side: loser}}
	case game.ReasonAgreement:
		if !ours.HasDrawOffer {
			cmds = append(cmds, table.Draw{Side: r.mySide(), Action: table.DrawOffer})
		}
		offerBy := r.mySide()
		if ours.HasDrawOffer {
			offerBy = ours.DrawOffer
		}
		cmds = append(cmds, table.Draw{Side: offerBy.Other(), Action: table.DrawAccept})
	case game.ReasonTime:
		flagged := loser
		if res == rules.Draw {
			flagged = theirs.Turn
		}
		cmds = []table.Command{table.PeerFlag{Side: flagged, At: r.o.Now()}}
	case game.ReasonThreefold, game.ReasonFiftyMoves:
		cmds = []table.Command{table.Draw{Side: r.spec.Side, Action: table.DrawClaim}}
	default:
		return // mate, stalemate, a dead position: the moves bring them here
	}
	for _, c := range cmds {
		if _, err := r.command(c); err != nil {
			r.report(fmt.Sprintf("desync with set %s: its result %s (%s) cannot be recorded here: %v", r.spec.Set, res,
				theirs.Reason, err))
			return
		}
	}
	r.o.Log.Info("opponent: remote result", "set", r.spec.Set, "result", res, "termination", theirs.Reason)
}

// offers plays here the other side's draw offer, and its decline of this
// side's.
func (r *Remote) offers(ours *table.Snapshot, rec *protocol.RemoteRecord) {
	if rec == nil || ours.Result != rules.NoResult {
		return
	}
	n := len(ours.Moves)
	if rec.DrawOffer == n && r.applied != n && !ours.HasDrawOffer {
		if _, err := r.command(table.Draw{Side: r.spec.Side, Action: table.DrawOffer}); err == nil {
			r.applied, r.seen = n, false
		}
	}
	if rec.DrawDeclined == n && r.answered != n && ours.HasDrawOffer && ours.DrawOffer == r.mySide() {
		if _, err := r.command(table.Draw{Side: r.spec.Side, Action: table.DrawDecline}); err == nil {
			r.answered = n
		}
	}
}

// takeBacks carries the other side's take-back request here, and its
// answer to this side's (the moves are taken back here when it accepts:
// it has taken them back there).
func (r *Remote) takeBacks(ours *table.Snapshot, rec *protocol.RemoteRecord) {
	if rec == nil || ours.Result != rules.NoResult {
		return
	}
	n := len(ours.Moves)
	if tb := rec.TakeBack; tb != nil && tb.At == n && r.asked != tb.ID && ours.TakeBack == nil {
		req := &table.TakeBackRequest{Plies: tb.Plies, At: tb.At, ID: tb.ID}
		if _, err := r.command(table.PeerTakeBack{Request: req}); err == nil {
			r.asked = tb.ID
		}
	}
	if a, tb := rec.TakeBackAnswer, ours.TakeBack; a != nil && tb != nil && !tb.ByPeer && a.At == tb.At && a.ID == tb.ID {
		if _, err := r.command(table.PeerTakeBack{Answer: &table.TakeBackAnswer{At: a.At, ID: a.ID, Accept: a.Accept}}); err != nil {
			r.report(fmt.Sprintf("desync with set %s: its answer to the take-back cannot be carried out here: %v", r.spec.Set, err))
		}
	}
}

// presence shows the other set's state and pauses the absent side's clock
// after the grace period; it resumes it when the other set is back.
func (r *Remote) presence(ours *table.Snapshot, paired bool, why string, online, heard bool, offSince time.Time, restarted bool) {
	st := table.PeerState{Set: r.spec.Set, Online: online, Paired: paired && why == "", Side: r.spec.Side, Desync: r.desync}
	running := ours.Clock != nil && ours.Clock.Running == r.spec.Side.String() && ours.Result == rules.NoResult
	switch {
	case !online && heard:
		st.Detail = fmt.Sprintf("set %s is offline since %s", r.spec.Set, offSince.UTC().Format("15:04:05"))
	case !online:
		st.Detail = fmt.Sprintf("set %s is not connected", r.spec.Set)
	default:
		st.Detail = why
	}
	if !online && running && !r.paused && !ours.Clock.Paused && r.o.Now().Sub(offSince) >= r.o.Grace {
		if _, err := r.command(table.AdjustClock{Action: table.ClockPause}); err == nil {
			r.paused = true
		}
	}
	if r.paused && !online {
		st.Detail += fmt.Sprintf("; %s's clock paused", r.spec.Side)
	}
	if restarted && online && paired && why == "" {
		// This set restarted in the game: the other set kept the game's
		// time, and its clock runs again now that both are here. The flag
		// goes once that is done: read with a snapshot older than the
		// flag's (the clock not paused yet), it was lost, and the clock
		// stayed paused (TestTwoSetsOneRestarts, once in a loaded run).
		done := true
		if ours.Clock != nil && ours.Clock.Paused && ours.Result == rules.NoResult {
			_, err := r.command(table.AdjustClock{Action: table.ClockResume})
			done = err == nil
		}
		if done {
			r.mu.Lock()
			r.restarted = false
			r.mu.Unlock()
		}
	}
	if online && r.paused {
		if ours.Clock != nil && ours.Clock.Paused && ours.Result == rules.NoResult {
			_, _ = r.command(table.AdjustClock{Action: table.ClockResume})
		}
		r.paused = false
	}
	if r.shownSet && st == r.shown {
		return
	}
	if _, err := r.command(table.Peer{State: &st}); err == nil {
		r.shown, r.shownSet = st, true
	}
}

// command carries out c on the table.
func (r *Remote) command(c table.Command) (table.Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.o.CommandTimeout)
	defer cancel()
	return r.do.Do(ctx, c)
}

func (r *Remote) report(problem string) {
	if problem == r.reported {
		return
	}
	r.reported = problem
	r.o.Log.Error("opponent: remote", "problem", problem)
	_, _ = r.command(table.Alert{Detail: problem})
}

// refused logs and counts what the other set said that this set does not
// believe, once for each thing.
func (r *Remote) refused(problem string) {
	if problem == r.reported {
		return
	}
	r.o.Log.Warn("opponent: remote: refused", "problem", problem)
	r.report(problem)
}

// resultAllowed says whether the other set's result may be recorded here:
// a resignation only by its own players, a draw by agreement only of an
// offer of this set's players that stands here, a flag only of its own
// side's clock (the other set is authoritative for it) with that flag
// fallen. Mates and the claims the moves bring here are the table's to
// check.
func (r *Remote) resultAllowed(ours *table.Snapshot, theirs *protocol.State, res rules.Result, loser rules.Color) error {
	switch game.Reason(theirs.Reason) {
	case game.ReasonResignation:
		if loser != r.spec.Side || res == rules.Draw {
			return fmt.Errorf("a resignation there can only be of its own players (%s)", r.spec.Side)
		}
	case game.ReasonAgreement:
		if res != rules.Draw {
			return errors.New("an agreement is a draw")
		}
		if !ours.HasDrawOffer || ours.DrawOffer != r.mySide() {
			return fmt.Errorf("no draw offer of %s stands here to be accepted", r.mySide())
		}
	case game.ReasonTime:
		flagged := loser
		if res == rules.Draw {
			flagged = theirs.Turn
		}
		if flagged != r.spec.Side {
			return fmt.Errorf("only %s's flag is that set's to declare", r.spec.Side)
		}
		if theirs.Clock == nil || theirs.Clock.Flag != flagged.String() {
			return fmt.Errorf("its clock shows no fallen flag of %s", flagged)
		}
	}
	return nil
}

// clockSlack is how far the other set's reading may be from what this set
// knows of the clock: the milliseconds its copy and the original differ.
const clockSlack = 2 * time.Second

// ClockAllowed checks the other set's clock after its move (theirs, its
// players playing side) against this game (ours, before the move): this
// side's time must be this set's own, to clockSlack, and the mover's time
// no more than it had when its turn began (its reading after its previous
// move, or the control's initial time) plus what one move of the control
// can give (an increment, a delay, a new period's time).
func ClockAllowed(ours *table.Snapshot, theirs *clock.Snapshot, side rules.Color) error {
	if ours.Clock == nil {
		return nil
	}
	ctl, err := clock.Parse(ours.Clock.Control)
	if err != nil {
		return fmt.Errorf("this set's control %q: %w", ours.Clock.Control, err)
	}
	ms := func(s *clock.Snapshot, c rules.Color) int64 {
		if c == rules.White {
			return s.WhiteMS
		}
		return s.BlackMS
	}
	mine := side.Other()
	// This side's time: its clock stood since its last move here.
	wantMine := ms(ours.Clock, mine)
	if d := ms(theirs, mine) - wantMine; d > clockSlack.Milliseconds() || d < -clockSlack.Milliseconds() {
		return fmt.Errorf("%s's time %s there, %s here", mine, time.Duration(ms(theirs, mine))*time.Millisecond,
			time.Duration(wantMine)*time.Millisecond)
	}
	before := ctl.Initial().Milliseconds()
	for i := len(ours.Moves) - 1; i >= 0; i-- {
		if m := ours.Moves[i]; m.ClkMS != nil && (i%2 == 0) == (ours.Start.Turn() == side) {
			before = *m.ClkMS
			break
		}
	}
	var gain time.Duration
	for i, p := range ctl.Periods {
		bonus := p.Amount
		if i > 0 {
			bonus += p.Time
		}
		gain = max(gain, bonus)
	}
	if got, most := ms(theirs, side), before+(gain+clockSlack).Milliseconds(); got > most {
		return fmt.Errorf("%s's time %s after its move: it had %s, and a move gives at most %s", side,
			time.Duration(got)*time.Millisecond, time.Duration(before)*time.Millisecond, gain)
	}
	return nil
}

// Next compares this game (ours) with the other set's (theirs), whose
// players play side, and returns the other side's next move to play here
// ("" when there is none yet), or a problem: the games differ.
func Next(ours *table.Snapshot, theirs *protocol.State, side rules.Color) (move, problem string) {
	start := ours.Start.String()
	if start == ours.System.Start().String() {
		start = ""
	}
	if theirs.Start != start || theirs.Variant != ours.System.Name() {
		return "", fmt.Sprintf("desync: the other set's game is %s from %q, this one %s from %q",
			theirs.Variant, theirs.Start, ours.System.Name(), start)
	}
	n := len(ours.Moves)
	for i := 0; i < n && i < len(theirs.Moves); i++ {
		if ours.Moves[i].Move != theirs.Moves[i] {
			return "", fmt.Sprintf("desync at move %d: %s here, %s on the other set", i+1, ours.Moves[i].Move, theirs.Moves[i])
		}
	}
	if len(theirs.Moves) <= n {
		return "", ""
	}
	if ours.Position.Turn() != side {
		return "", fmt.Sprintf("desync at move %d: the other set played %s for this set's side", n+1, theirs.Moves[n])
	}
	if ours.Result != rules.NoResult {
		return "", ""
	}
	return theirs.Moves[n], ""
}

// Close stops following.
func (r *Remote) Close() {
	close(r.stop)
	<-r.done
	r.f.Close()
}
