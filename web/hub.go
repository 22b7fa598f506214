package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/rules/targets"
)

// HubOpts configures a Hub. Delay and Eval are settings of the
// configuration file's "http" section (the yaml names; those tagged "-"
// are not settings), checked by Validate.
type HubOpts struct {
	// Delay is the broadcast delay: what the hub is told is shown Delay
	// later, on the pages and the feeds alike. Zero shows it at once. With
	// a delay, Release (or Run) applies what is due.
	Delay time.Duration `yaml:"delay"`
	// Now is the clock (time.Now when nil); NewTimer makes Run's timers
	// on it (a channel that receives once d has passed, and a function
	// that stops it; nil means the real clock's).
	Now      func() time.Time                                      `yaml:"-"`
	NewTimer func(d time.Duration) (<-chan time.Time, func() bool) `yaml:"-"`
	// MaxBoards bounds the boards known; a board beyond it is ignored.
	MaxBoards int `yaml:"-"`
	// MaxPlies bounds the moves kept of a game; moves beyond it are not
	// shown (the game's record is cut there).
	MaxPlies int `yaml:"-"`
	// MaxPending bounds the inputs waiting for the delay; beyond it the
	// oldest is applied early.
	MaxPending int `yaml:"-"`
	// Eval turns on the engine's evaluation of each position for the
	// spectators (the evaluation bar, the best line, the graph), run by
	// RunEval: EvalNodes bounds each search (and EvalDepth, 0: none),
	// EvalPlies how far back in a game it goes.
	Eval      bool  `yaml:"eval"`
	EvalNodes int64 `yaml:"-"`
	EvalDepth int   `yaml:"-"`
	EvalPlies int   `yaml:"-"`
	// Tick is the wall streams' batch: the changes within a tick go out
	// together, each board once (the first change after a quiet tick at
	// once). WallLog is how many changes the wall's log keeps: a stream
	// further behind skips to the latest summary of every board.
	Tick    time.Duration `yaml:"-"`
	WallLog int           `yaml:"-"`
}

// Validate checks the settings of the configuration file: a delay of at
// most an hour. Its error is setting.Problems, keyed by the yaml names.
func (o *HubOpts) Validate() error {
	var ps setting.Problems
	ps.Between("delay", o.Delay, 0, time.Hour)
	return ps.Err("web")
}

// DefaultOpts are the hub's defaults: no delay, 1000 boards, 2000 plies a
// game, 100000 delayed inputs; the evaluation off, and when on 60,000
// nodes a position (0.2 to 0.35 s on a PC core, BenchmarkEval; a
// Raspberry Pi takes longer), the last 400 plies; the wall's changes
// batched per 250 ms, 4096 of them kept.
func DefaultOpts() HubOpts {
	return HubOpts{MaxBoards: 1000, MaxPlies: 2000, MaxPending: 100000, EvalNodes: 60000, EvalPlies: 400,
		Tick: 250 * time.Millisecond, WallLog: 4096}
}

// Hub keeps every board known from the MQTT payloads: the game replayed
// with the rules, the board status, the lifted cells and their targets,
// the cells to fix. It is safe for concurrent use.
type Hub struct {
	opts HubOpts

	mu      sync.Mutex
	boards  map[string]*board
	ids     []string                     // the boards' ids in natural order; nil: to sort again
	subs    map[string]map[*sub]struct{} // board -> its streams
	pending []input
	layouts map[string]*Layout
	systems map[string]rules.System
	// evalWake wakes RunEval when a board changed.
	evalWake chan struct{}

	// The wall streams (feed.go): their count, the boards changed since
	// the last publication, whether one is scheduled, and when the last
	// was.
	wall        *feed
	streams     int
	dirty       []*board
	publishing  bool
	lastPublish time.Time
	// snap is every board's frame one after the other, as a wall stream
	// starts with it, while no board changes (snapFrames: those frames).
	snap       []byte
	snapFrames [][]byte
}

type input struct {
	at    time.Time
	board string
	apply func(*board)
}

type sub struct {
	ch chan struct{}
}

// NewHub returns an empty hub.
func NewHub(opts HubOpts) *Hub {
	d := DefaultOpts()
	if opts.MaxBoards <= 0 {
		opts.MaxBoards = d.MaxBoards
	}
	if opts.MaxPlies <= 0 {
		opts.MaxPlies = d.MaxPlies
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = d.MaxPending
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewTimer == nil {
		opts.NewTimer = realTimer
	}
	if opts.EvalNodes <= 0 {
		opts.EvalNodes = d.EvalNodes
	}
	if opts.EvalPlies <= 0 {
		opts.EvalPlies = d.EvalPlies
	}
	if opts.Tick <= 0 {
		opts.Tick = d.Tick
	}
	if opts.WallLog <= 0 {
		opts.WallLog = d.WallLog
	}
	return &Hub{opts: opts, boards: map[string]*board{}, subs: map[string]map[*sub]struct{}{},
		layouts: map[string]*Layout{}, systems: map[string]rules.System{}, evalWake: make(chan struct{}, 1),
		wall: newFeed(opts.WallLog)}
}

// State gives the hub a board's retained state.
func (h *Hub) State(id string, s protocol.State) {
	s = h.own(s)
	h.input(id, func(b *board) { b.state(h, s, nil, nil) })
}

// Snapshot is a board's game handed to the hub in the daemon's own process
// (table/websink): the payloads the set publishes, typed, and what the hub
// would otherwise work out again from them.
type Snapshot struct {
	// State is the state after the change; Move the move made (nil: none);
	// Event the event (nil: none).
	State protocol.State
	Move  *protocol.Move
	Event *protocol.Event
	// System and Start are the game's system and start position: no
	// lookup of the variant by its name, no start position read again.
	System rules.System
	Start  rules.Position
	// Targets are the lifted piece's targets as the set's LEDs show them
	// (none under the teacher's lock or for a side without assistance);
	// nil: the hub works them out from the lifted cells (targets.Lifted).
	Targets *targets.Set
}

// Snapshot gives the hub a board's change at once: its move, its event and
// the state after them, in that order.
func (h *Hub) Snapshot(id string, s Snapshot) {
	st := h.own(s.State)
	var mv *protocol.Move
	if s.Move != nil {
		m := h.ownMove(*s.Move)
		mv = &m
	}
	var ev *protocol.Event
	if s.Event != nil {
		e := *s.Event
		e.Cells = slices.Clone(e.Cells)
		ev = &e
	}
	var given *targets.Set
	if s.Targets != nil {
		c := *s.Targets
		given = &c
	}
	h.input(id, func(b *board) {
		b.given = given
		defer func() { b.given = nil }()
		if mv != nil {
			b.move(h, *mv)
		}
		if ev != nil {
			b.event(h, *ev)
		}
		b.state(h, st, s.System, s.Start)
	})
}

// own copies what the hub keeps of s and the caller may change.
func (h *Hub) own(s protocol.State) protocol.State {
	s.Moves, s.ClkMS = slices.Clone(s.Moves), slices.Clone(s.ClkMS)
	s.Board.Cells, s.Board.Choices = slices.Clone(s.Board.Cells), slices.Clone(s.Board.Choices)
	s.Tags = maps.Clone(s.Tags)
	if s.Clock != nil {
		c := *s.Clock
		// Delayed, the clock counts down on the delayed timeline.
		c.At = clock.Stamp{Time: c.At.Add(h.opts.Delay)}
		s.Clock = &c
	}
	return s
}

// Move gives the hub a move message. Duplicates (a seq not above the last
// one of the game) are dropped.
func (h *Hub) Move(id string, m protocol.Move) {
	m = h.ownMove(m)
	h.input(id, func(b *board) { b.move(h, m) })
}

func (h *Hub) ownMove(m protocol.Move) protocol.Move {
	if m.ClkMS != nil {
		c := *m.ClkMS
		m.ClkMS = &c
	}
	return m
}

// Event gives the hub an event message.
func (h *Hub) Event(id string, e protocol.Event) {
	e.Cells = slices.Clone(e.Cells)
	h.input(id, func(b *board) { b.event(h, e) })
}

// Availability says whether a board's daemon is online.
func (h *Hub) Availability(id string, online bool) {
	h.input(id, func(b *board) { b.online = online; b.touch(false) })
}

func (h *Hub) input(id string, f func(*board)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opts.Delay <= 0 {
		h.apply(id, f)
		return
	}
	if len(h.pending) >= h.opts.MaxPending {
		in := h.pending[0]
		h.pending = h.pending[1:]
		h.apply(in.board, in.apply)
	}
	h.pending = append(h.pending, input{at: h.opts.Now(), board: id, apply: f})
}

// Release applies the inputs that are due at now (those older than the
// delay) and reports how many wait still.
func (h *Hub) Release(now time.Time) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for n < len(h.pending) && !h.pending[n].at.Add(h.opts.Delay).After(now) {
		h.apply(h.pending[n].board, h.pending[n].apply)
		n++
	}
	h.pending = append(h.pending[:0], h.pending[n:]...)
	return len(h.pending)
}

// Run releases the delayed inputs every tick until done is closed. Only
// needed with a delay.
func (h *Hub) Run(done <-chan struct{}, tick time.Duration) {
	for {
		t, stop := h.opts.NewTimer(tick)
		select {
		case <-done:
			stop()
			return
		case <-t:
			h.Release(h.opts.Now())
		}
	}
}

// realTimer is time.NewTimer as an Opts.NewTimer.
func realTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// apply runs f on board id (created if new) with h.mu held, and wakes the
// subscribers if it changed.
func (h *Hub) apply(id string, f func(*board)) {
	if !validID(id) {
		return
	}
	b := h.boards[id]
	if b == nil {
		if len(h.boards) >= h.opts.MaxBoards {
			return
		}
		b = &board{id: id, max: h.opts.MaxPlies, status: protocol.BoardInSync, result: protocol.ResultOngoing}
		h.boards[id] = b
		h.ids = nil
	}
	v := b.ver
	f(b)
	if b.ver == v {
		return
	}
	h.wake(id)
}

// wake tells the streams of board id, the wall's and RunEval that it
// changed. h.mu is held.
func (h *Hub) wake(id string) {
	select {
	case h.evalWake <- struct{}{}:
	default:
	}
	for s := range h.subs[id] {
		select {
		case s.ch <- struct{}{}:
		default:
		}
	}
	if b := h.boards[id]; b != nil {
		h.changed(b)
	}
}

// validID accepts the board ids an MQTT topic level and a URL path
// element can both carry.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			return false
		}
	}
	return id != "." && id != ".."
}

// subscribe returns a channel that receives a value (coalesced) whenever
// board id changes.
func (h *Hub) subscribe(id string) (<-chan struct{}, func()) {
	s := &sub{ch: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.subs[id] == nil {
		h.subs[id] = map[*sub]struct{}{}
	}
	h.subs[id][s] = struct{}{}
	h.mu.Unlock()
	return s.ch, func() {
		h.mu.Lock()
		delete(h.subs[id], s)
		if len(h.subs[id]) == 0 {
			delete(h.subs, id)
		}
		h.mu.Unlock()
	}
}

// system returns the rules of a variant name, cached.
func (h *Hub) system(name string) (rules.System, error) {
	if s, ok := h.systems[name]; ok {
		return s, nil
	}
	s, err := systems.ByName(name)
	if err != nil {
		return nil, err
	}
	if len(h.systems) < 64 {
		h.systems[name] = s
	}
	return s, nil
}

// Layout returns the layout of a variant ("st3d", "millennium", ...).
func (h *Hub) Layout(variant string) (*Layout, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l, ok := h.layouts[variant]; ok {
		return l, nil
	}
	sys, err := h.system(variant)
	if err != nil {
		return nil, err
	}
	l, err := LayoutOf(sys)
	if err != nil {
		return nil, err
	}
	if len(h.layouts) < 64 {
		h.layouts[variant] = l
	}
	return l, nil
}

// Boards lists the ids of the boards known, in natural order (load-2
// before load-10).
func (h *Hub) Boards() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.boardIDs())
}

// boardIDs are the ids of the boards, in natural order (sorted once per
// board added; the caller may not change them). h.mu is held.
func (h *Hub) boardIDs() []string {
	if h.ids == nil {
		ids := make([]string, 0, len(h.boards))
		for id := range h.boards {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return naturalLess(ids[i], ids[j]) })
		h.ids = ids
	}
	return h.ids
}

// View returns board id as a page draws it, with every move, and false
// if the board is unknown.
func (h *Hub) View(id string) (*BoardView, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil {
		return nil, false
	}
	v := b.view(0, 0)
	v.Now = h.opts.Now()
	return v, true
}

// Summary returns board id as the wall draws it.
func (h *Hub) Summary(id string) (*Summary, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil {
		return nil, false
	}
	v := b.summary()
	v.Now = h.opts.Now()
	return v, true
}

// Summaries returns every board as the wall draws it, in the natural
// order of their ids.
func (h *Hub) Summaries() []*Summary {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Summary, 0, len(h.boards))
	for _, b := range h.boards {
		v := b.summary()
		v.Now = h.opts.Now()
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return naturalLess(out[i].ID, out[j].ID) })
	return out
}

// since returns what changed on board id since a client saw (game, seq,
// statusVer): the moves after seq when the game and its history are the
// same (epoch), or a full view when not (full is true then).
func (h *Hub) since(id string, epoch uint64, seq int, ver uint64) (v *BoardView, full, changed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil {
		return nil, false, false
	}
	if seq == b.seq() && ver == b.ver && epoch == b.epoch {
		return nil, false, false
	}
	v, full = b.delta(epoch, seq, ver)
	v.Now = h.opts.Now()
	return v, full, true
}

// delta is the board for a stream that has (epoch, seq, ver): the moves
// after seq, or every move (full) when its game or history is not the
// board's.
func (b *board) delta(epoch uint64, seq int, ver uint64) (v *BoardView, full bool) {
	if full = epoch != b.epoch || seq > b.seq(); full {
		return b.view(0, 0), true
	}
	return b.view(seq, ver), false
}

// sinceFrame is since as the frame a board stream writes ("view" event, its
// id the seq): encoded once for every stream of the board at the same
// point (epoch, seq, ver) of the same version of the board, within a
// second (the frame carries the server's time).
func (h *Hub) sinceFrame(id string, epoch uint64, seq int, ver uint64) (frame []byte, nepoch uint64, nseq int, nver uint64, changed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil || seq == b.seq() && ver == b.ver && epoch == b.epoch {
		return nil, 0, 0, 0, false
	}
	now := h.opts.Now()
	key := viewKey{epoch, seq, ver}
	if b.viewsVer != b.ver {
		b.views, b.viewsVer = nil, b.ver
	}
	if f, ok := b.views[key]; ok && now.Sub(f.at) < time.Second && now.Sub(f.at) >= 0 {
		return f.data, b.epoch, b.seq(), b.ver, true
	}
	v, _ := b.delta(epoch, seq, ver)
	v.Now = now
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(`{"id":` + strconv.Quote(id) + `,"error":` + strconv.Quote(err.Error()) + `}`)
	}
	frame = fmt.Appendf(nil, "id: %d\nevent: view\ndata: %s\n\n", v.Seq, data)
	if b.views == nil {
		b.views = map[viewKey]viewFrame{}
	}
	if len(b.views) < 8 {
		b.views[key] = viewFrame{data: frame, at: now}
	}
	return frame, v.Epoch, v.Seq, v.Ver, true
}

// viewKey is where a board stream is: the epoch, seq and version it has.
type viewKey struct {
	epoch uint64
	seq   int
	ver   uint64
}

// viewFrame is a board stream's frame, encoded at.
type viewFrame struct {
	data []byte
	at   time.Time
}

// resumeEpoch finds the epoch a client resuming after (game, seq) is in:
// the board's current epoch when its game is game (or game is unknown and
// seq is within the game's moves), else 0, which asks for a full view.
func (h *Hub) resumeEpoch(id, game string, seq int) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil || seq > b.seq() || (game != "" && game != b.game) || (game == "" && seq < b.firstSeq()) {
		return 0
	}
	return b.epoch
}

// behind reports whether board id is in game at a seq below seq: a page
// resuming there from another view has more than this view.
func (h *Hub) behind(id, game string, seq int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil {
		return game != ""
	}
	return game != "" && (b.game == game && b.seq() < seq || OlderGame(b.game, game))
}

// String describes the hub for logs.
func (h *Hub) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return fmt.Sprintf("web hub: %d boards, %d delayed inputs", len(h.boards), len(h.pending))
}
