package web

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/rules/targets"
)

// board is what the hub knows of one board. Its methods run with the hub's
// lock held.
type board struct {
	id     string
	max    int // plies kept at most
	online bool
	ver    uint64 // counts every change
	epoch  uint64 // counts the changes of the game's history other than a move appended

	game    string
	sys     rules.System
	g       *rules.Game
	baseSeq int   // the seq before the first ply kept (0 from the start)
	partial bool  // the position is shown without the moves that led to it
	seqs    []int // the seq of each ply
	plies   []*MoveView
	start   plyView // the start position, drawn
	tags    map[string]string
	clock   *clock.Snapshot
	lesson  *protocol.Lesson
	peer    *protocol.PeerState // the other set of a remote game

	status, fault  string
	awaitingPress  bool
	cells, choices []string
	lifted         rules.CellSet
	targets        targets.Set  // the lifted cells' legal targets
	given          *targets.Set // the set's own targets, while a Snapshot is applied
	fix            []string
	fixReason      string
	fixInstruction string // what to do, in words (a mismatch's instruction)
	checkCell      string
	result, reason string
	err            string
	last           *EventView
	buf            []rules.Move
	updated        time.Time
	lastState      *protocol.State // the state applied last, from MQTT
	startEval      *EvalView
	startEvalVer   uint64
	past           []pastGame // the games played before, without an archive

	// The wall's frame of the summary (feed.go) as of frameVer, and
	// whether the board waits for the next publication.
	frame    []byte
	frameVer uint64
	dirty    bool
	// The board streams' frames (Hub.sinceFrame) as of viewsVer, by where
	// the streams were.
	views    map[viewKey]viewFrame
	viewsVer uint64
}

// plyView is a position as drawn: the pieces on their cells, the
// presence cells closed (the boards standing on their pins) and the
// pieces still to come in (rules.Reserver), by letter ("N" White's
// knights, "n" Black's).
type plyView struct {
	Pieces  map[string]string `json:"pieces"`
	Pins    []string          `json:"pins,omitempty"`
	Reserve map[string]int    `json:"reserve,omitempty"`
}

func (b *board) touch(history bool) {
	b.ver++
	if history {
		b.epoch++
	}
}

func (b *board) seq() int {
	if n := len(b.seqs); n > 0 {
		return b.seqs[n-1]
	}
	return b.baseSeq
}

func (b *board) firstSeq() int { return b.baseSeq + 1 }

func (b *board) pos() rules.Position {
	if b.g == nil {
		return nil
	}
	return b.g.Position()
}

// draw renders a position.
func (b *board) draw(p rules.Position) plyView {
	v := plyView{Pieces: map[string]string{}}
	occ := p.Occupancy()
	geo, _ := systems.GeometryOf(b.sys)
	for i, n := range b.sys.Cells() {
		c := rules.Cell(i)
		if pc, ok := p.CellPiece(c); ok {
			v.Pieces[n] = string(pc.Letter())
		} else if occ.Has(c) && geo != nil && geo.Cells[i].IsSocket {
			v.Pins = append(v.Pins, n)
		}
	}
	if r, ok := p.(rules.Reserver); ok {
		for _, c := range []rules.Color{rules.White, rules.Black} {
			for k := rules.Pawn; k <= rules.King; k++ {
				if n := r.Reserve(c, k); n > 0 {
					if v.Reserve == nil {
						v.Reserve = map[string]int{}
					}
					v.Reserve[string(rules.PieceOf(c, k).Letter())] = n
				}
			}
		}
	}
	return v
}

// reset starts the history over from start with moves (long form) and
// their clocks (the mover's time left after each, or nil), the last of
// which has seq last.
func (b *board) reset(start rules.Position, moves []string, clks []int64, last int) {
	b.g = rules.NewGame(start)
	b.seqs, b.plies = nil, nil
	b.startEval = nil
	b.start = b.draw(start)
	b.err, b.partial = "", false
	if last < len(moves) {
		last = len(moves)
	}
	b.baseSeq = last - len(moves)
	for i, s := range moves {
		if !b.play(s, b.baseSeq+i+1, clkAt(clks, i), time.Time{}) {
			break
		}
	}
	b.lifted, b.targets = rules.CellSet{}, targets.Set{}
	b.touch(true)
}

// clkAt is the clock after move i of clks, or nil.
func clkAt(clks []int64, i int) *int64 {
	if i < len(clks) {
		return &clks[i]
	}
	return nil
}

// play plays a long move with its seq, the mover's clock after it (or nil)
// and when it was played, and records the ply.
func (b *board) play(s string, seq int, clk *int64, at time.Time) bool {
	if len(b.plies) >= b.max {
		b.err = "game too long: moves beyond " + itoa(b.max) + " are not shown"
		return false
	}
	p := b.g.Position()
	m, _, err := p.ParseMove(s)
	if err != nil {
		b.err = "move " + itoa(seq) + ": " + err.Error()
		return false
	}
	info := p.Info(m)
	ply := len(b.plies)
	mv := &MoveView{Seq: seq, Ply: ply + 1, Num: moveNumber(b.g.Start(), ply), Long: p.Long(m), Short: p.Short(m), ClkMS: clk, Time: at}
	cells := b.sys.Cells()
	if info.From != rules.NoCell {
		mv.From = cells[info.From]
	}
	if info.To != rules.NoCell {
		mv.To = cells[info.To]
	}
	next := b.g.Play(m)
	mv.plyView = b.draw(next)
	if in, k := next.InCheck(); in && k != rules.NoCell {
		mv.Check = cells[k]
	}
	b.seqs = append(b.seqs, seq)
	b.plies = append(b.plies, mv)
	return true
}

// moveNumber is the number written before ply i of a game from start:
// "12." before White's move, "12..." before Black's.
func moveNumber(start rules.Position, i int) string {
	n := start.FullmoveNumber()
	white := start.Turn() == rules.White
	if !white {
		i++
	}
	n += i / 2
	if i%2 == 0 {
		return itoa(n) + "."
	}
	return itoa(n) + "..."
}

func itoa(n int) string { return strconv.Itoa(n) }

func (b *board) longs() []string {
	out := make([]string, len(b.plies))
	for i, p := range b.plies {
		out[i] = p.Long
	}
	return out
}

// state takes a board's state; sys and start, when not nil, are the
// game's system and start position as the table has them (else they are
// read from the state).
func (b *board) state(h *Hub, s protocol.State, sys rules.System, start rules.Position) {
	if err := s.Supported(); err != nil {
		b.err = err.Error()
		b.touch(false)
		return
	}
	var err error
	if sys == nil {
		if sys, err = h.system(s.Variant); err != nil {
			b.err = "variant: " + err.Error()
			b.touch(false)
			return
		}
	}
	if b.stale(s.Game, s.Time) {
		return // an older state (a retained one replayed): what is shown stays
	}
	if start == nil && b.lastState != nil && reflect.DeepEqual(*b.lastState, s) {
		// The state applied last, again (the retained states sent again
		// with a new subscription): nothing goes to the pages.
		return
	}
	if start == nil {
		b.lastState = &s
	} else {
		b.lastState = nil
	}
	if b.game != s.Game {
		b.remember() // the game before, with its own tags and result
	}
	b.tags, b.clock, b.lesson, b.peer = s.Tags, s.Clock, s.Lesson, s.Peer
	last := len(s.Moves)
	if s.LastMove != nil && s.LastMove.Seq > 0 {
		last = s.LastMove.Seq
	}
	if start == nil {
		start = sys.Start()
		if s.Start != "" {
			if start, err = sys.ParsePosition(s.Start); err != nil {
				b.err = "start position: " + err.Error()
				b.touch(false)
				return
			}
		}
	}
	have := b.longs()
	clks := s.ClkMS
	if len(clks) != len(s.Moves) {
		clks = nil
	}
	switch {
	case b.sys == nil || b.sys.Name() != sys.Name() || b.game != s.Game || b.g.Start().String() != start.String() || b.partial && len(s.Moves) > 0:
		b.sys, b.game = sys, s.Game
		b.reset(start, s.Moves, clks, last)
	case slices.Equal(have, s.Moves):
		// The same moves: the state may know clocks a resumed page lacks.
		for i, p := range b.plies {
			if p.ClkMS == nil && i < len(clks) {
				c := *p // the views handed out share the old one
				c.ClkMS = clkAt(clks, i)
				b.plies[i] = &c
			}
		}
	case len(have) < len(s.Moves) && slices.Equal(have, s.Moves[:len(have)]):
		for i, mv := range s.Moves[len(have):] {
			seq := last - (len(s.Moves) - len(have) - 1 - i)
			if seq <= b.seq() {
				seq = b.seq() + 1
			}
			if !b.play(mv, seq, clkAt(clks, len(have)+i), time.Time{}) {
				break
			}
		}
	case len(s.Moves) < len(have) && slices.Equal(have[:len(s.Moves)], s.Moves):
		b.truncate(len(s.Moves))
	default:
		b.reset(start, s.Moves, clks, last)
	}
	if s.Position != "" && len(b.plies) < b.max && b.g.Position().String() != s.Position {
		// The moves do not lead to the state's position: show the position.
		if p, err := sys.ParsePosition(s.Position); err == nil {
			b.reset(p, nil, nil, last)
			b.partial = true
			b.err = "the moves do not lead to the position: showing the position without its moves"
		}
	}
	b.status, b.cells, b.choices, b.fault = s.Board.Status, s.Board.Cells, s.Board.Choices, s.Board.Fault
	b.awaitingPress = s.Board.AwaitingPress
	switch s.Board.Status {
	case protocol.BoardMoveInProgress:
		b.setLifted(s.Board.Cells)
		b.fix, b.fixReason = nil, ""
	case protocol.BoardMismatch:
		b.setLifted(nil)
		b.fix, b.fixInstruction = s.Board.Cells, s.Board.Instruction
		if r := s.Board.Reason; r != "" && !strings.HasSuffix(b.fixReason, r) {
			b.fixReason = r // the state's reason stands; an event's may say "illegal: " before it
		}
		if b.fixReason == "" {
			b.fixReason = "these cells differ from the position: put the pieces back"
		}
	case protocol.BoardSensorFault:
		b.setLifted(nil)
		b.fix, b.fixReason = s.Board.Cells, "sensor fault: "+s.Board.Fault
	default:
		b.setLifted(nil)
		b.fix, b.fixReason = nil, ""
	}
	if s.Board.Status != protocol.BoardMismatch {
		b.fixInstruction = ""
	}
	b.result, b.reason = s.Result, s.Reason
	if b.result == "" {
		b.result = protocol.ResultOngoing
	}
	b.updated = s.Time
	b.touch(false)
}

// stale reports whether a state of game at t is older than what the board
// shows: of a game before the board's (game ids grow), or of the same game
// and stamped before the board's last state or move (a retained state
// replayed after a reconnection, by another node of a cluster, or after
// newer moves came). A stale state is dropped: the board never steps
// back. (A set whose clock went back mid-game has its states dropped until
// its next move, which is applied by its seq and takes the board's time
// back with it.)
func (b *board) stale(game string, t time.Time) bool {
	if b.game == "" || game == "" {
		return false
	}
	if game != b.game {
		return OlderGame(game, b.game)
	}
	return !t.IsZero() && t.Before(b.updated)
}

// OlderGame reports whether game id a was made before game id b: both
// start with their creation time (20250102-030405-123 from the daemon;
// the sets make them later than every game before, even when their clock
// went back), compared as people count. Ids without it are not ordered.
func OlderGame(a, b string) bool {
	if !gameStamp(a) || !gameStamp(b) || a == b {
		return false
	}
	return naturalLess(a, b)
}

// gameStamp reports whether id starts with a time, 20250102-030405.
func gameStamp(id string) bool {
	if len(id) < 15 || id[8] != '-' {
		return false
	}
	return digits(id) == 8 && digits(id[9:]) == 6
}

// truncate keeps the first n plies (a take-back).
func (b *board) truncate(n int) {
	for len(b.plies) > n && b.g.TakeBack() {
		b.plies = b.plies[:len(b.plies)-1]
		b.seqs = b.seqs[:len(b.seqs)-1]
	}
	b.touch(true)
}

func (b *board) move(h *Hub, m protocol.Move) {
	if b.sys == nil || m.Game == "" || m.Seq < 1 || OlderGame(m.Game, b.game) {
		return
	}
	if m.Game != b.game {
		b.remember()
		b.game = m.Game
		b.tags, b.result, b.reason = nil, protocol.ResultOngoing, ""
		start := b.sys.Start()
		if m.Seq != 1 {
			p, err := b.sys.ParsePosition(m.Position)
			if err != nil {
				b.err = "move " + itoa(m.Seq) + ": position: " + err.Error()
				b.touch(false)
				return
			}
			b.reset(p, nil, nil, m.Seq)
			b.partial = true
			b.touch(false)
			return
		}
		b.reset(start, nil, nil, 0)
	}
	if m.Seq <= b.seq() {
		return // a duplicate
	}
	if b.follows(b.g.Position(), m) {
		b.play(m.Move, m.Seq, m.ClkMS, m.Time)
	} else {
		// A take-back we missed: find the ply the move follows.
		k := -1
		for i := len(b.plies) - 1; i >= 0 && k < 0; i-- {
			_, p := b.g.Move(i)
			if b.follows(p, m) {
				k = i
			}
		}
		if k >= 0 {
			b.truncate(k)
			b.play(m.Move, m.Seq, m.ClkMS, m.Time)
		} else if p, err := b.sys.ParsePosition(m.Position); err == nil {
			b.reset(p, nil, nil, m.Seq)
			b.partial = true
			b.err = "move " + itoa(m.Seq) + " does not follow the game: showing its position"
		} else {
			b.err = "move " + itoa(m.Seq) + ": " + err.Error()
		}
	}
	b.setLifted(nil)
	b.fix, b.fixReason, b.fixInstruction = nil, "", ""
	if r, why := b.g.Outcome(); r != rules.NoResult {
		b.result, b.reason = string(r), why
	}
	b.updated = m.Time
	b.touch(false)
}

// follows reports whether m is a legal move in p leading to m.Position.
func (b *board) follows(p rules.Position, m protocol.Move) bool {
	mv, _, err := p.ParseMove(m.Move)
	if err != nil {
		return false
	}
	return m.Position == "" || p.Play(mv).String() == m.Position
}

func (b *board) cellSet(names []string) rules.CellSet {
	var s rules.CellSet
	if b.sys == nil {
		return s
	}
	for _, n := range names {
		if c, ok := rules.CellByName(b.sys, n); ok {
			s.Add(c)
		}
	}
	return s
}

func (b *board) setLifted(names []string) {
	b.lifted = b.cellSet(names)
	b.targets = targets.Set{}
	switch {
	case b.given != nil:
		b.targets = *b.given // what the set's LEDs show
	case !b.lifted.Empty() && b.g != nil:
		b.targets, b.buf = targets.Lifted(b.g.Position(), b.lifted, b.buf)
	}
}

func (b *board) event(h *Hub, e protocol.Event) {
	if e.Game != "" && OlderGame(e.Game, b.game) {
		return // an event of a game before
	}
	b.last = &EventView{Type: e.Type, Cell: e.Cell, Cells: e.Cells, Detail: e.Detail, Move: e.Move, Result: e.Result, Time: e.Time}
	switch e.Type {
	case protocol.EventLift:
		b.setLifted(e.Cells)
		b.status = protocol.BoardMoveInProgress
	case protocol.EventPlace:
		var keep []string
		placed := b.cellSet(e.Cells)
		for _, n := range b.names(b.lifted) {
			if c, ok := rules.CellByName(b.sys, n); ok && !placed.Has(c) {
				keep = append(keep, n)
			}
		}
		b.setLifted(keep)
	case protocol.EventIllegal:
		b.fix, b.fixReason = e.Cells, "illegal: "+or(e.Detail, "no legal move explains it")
	case protocol.EventMismatch:
		b.fix, b.fixReason = e.Cells, or(e.Detail, "these cells differ from the position: put the pieces back")
		b.status = protocol.BoardMismatch
	case protocol.EventCheck:
		b.checkCell = e.Cell
	case protocol.EventGameOver:
		if e.Result != "" {
			b.result = e.Result
		}
		b.reason = e.Detail
	case protocol.EventFault:
		b.fixReason = "fault: " + e.Detail
	case protocol.EventTakeBack:
		if n := len(b.plies); n > 0 && (e.Move == "" || b.plies[n-1].Long == e.Move) {
			b.truncate(n - 1)
		}
	case protocol.EventNewGame:
		if b.sys != nil && e.Game != b.game {
			b.remember()
			b.game = e.Game
			b.tags, b.result, b.reason, b.fix, b.fixReason, b.fixInstruction = nil, protocol.ResultOngoing, "", nil, "", ""
			b.reset(b.sys.Start(), nil, nil, 0)
		}
	}
	b.touch(false)
}

func or(s, empty string) string {
	if s == "" {
		return empty
	}
	return s
}

func (b *board) names(s rules.CellSet) []string {
	if b.sys == nil || s.Empty() {
		return nil
	}
	cells := b.sys.Cells()
	var out []string
	for _, c := range s.Cells(nil) {
		if int(c) < len(cells) {
			out = append(out, cells[c])
		}
	}
	return out
}

func (b *board) variant() string {
	if b.sys == nil {
		return ""
	}
	return b.sys.Name()
}

func (b *board) current() plyView {
	if n := len(b.plies); n > 0 {
		return b.plies[n-1].plyView
	}
	return b.start
}

// turn is the side to move, "white" or "black".
func (b *board) turn() string {
	if p := b.pos(); p != nil {
		return p.Turn().String()
	}
	return ""
}

func (b *board) check() string {
	if n := len(b.plies); n > 0 {
		return b.plies[n-1].Check
	}
	if p := b.pos(); p != nil {
		if in, k := p.InCheck(); in && k != rules.NoCell {
			return b.sys.Cells()[k]
		}
	}
	return ""
}

func (b *board) status0() Status {
	s := Status{Online: b.online, Game: b.game, Variant: b.variant(), Seq: b.seq(), Epoch: b.epoch, Ver: b.ver,
		Tags: b.tags, Clock: b.clock, Peer: b.peer, Board: or(b.status, protocol.BoardInSync), Choices: b.choices, Fault: b.fault, AwaitingPress: b.awaitingPress && b.status == protocol.BoardMoveInProgress,
		Lifted: b.names(b.lifted), Targets: b.names(b.targets.Targets), Captures: b.names(b.targets.Captures),
		PinTargets: b.names(b.targets.Pins), Fix: b.fix, FixReason: b.fixReason, FixInstruction: b.fixInstruction, Lesson: b.lesson, Turn: b.turn(), Check: b.check(),
		Result: or(b.result, protocol.ResultOngoing), Termination: b.reason, Error: b.err, Event: b.last, Plies: len(b.plies), At: b.updated}
	if s.Check == "" && b.checkCell != "" && len(b.plies) == 0 {
		s.Check = b.checkCell
	}
	return s
}

// view is the board for a client that has the moves up to seq after (0:
// none, a full view) as of the board's version ver: the moves after, and
// the earlier ones whose evaluation came since.
func (b *board) view(after int, ver uint64) *BoardView {
	v := &BoardView{ID: b.id, Status: b.status0(), Start: b.start, StartEval: b.startEval}
	if after == 0 {
		v.Full = true
		v.Moves = slices.Clone(b.plies)
	} else {
		i, _ := slices.BinarySearch(b.seqs, after+1)
		for _, p := range b.plies[max(0, i-evalBack):i] {
			if p.evalVer > ver {
				v.Moves = append(v.Moves, p)
			}
		}
		v.Moves = append(v.Moves, b.plies[i:]...)
	}
	if v.Moves == nil {
		v.Moves = []*MoveView{}
	}
	return v
}

func (b *board) summary() *Summary {
	s := &Summary{ID: b.id, Status: b.status0(), Pos: b.current()}
	if n := len(b.plies); n > 0 {
		p := b.plies[n-1]
		s.Last = &LastView{Num: p.Num, Short: p.Short, From: p.From, To: p.To}
	}
	return s
}

// evalBack is how far back an update looks for evaluations that came
// since the client's version.
const evalBack = 64
