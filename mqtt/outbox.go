package mqtt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/protocol"
)

// OutboxFile is the name of the outbox log in the state directory.
const OutboxFile = "outbox.log"

// Records are framed by internal/durable: one record a line,
// "LLLLLLLL CCCCCCCC {json}\n" (length and CRC-32C of the JSON payload).
const (
	// maxMarks bounds the games remembered after compaction, so that
	// re-enqueueing an old journal does not publish it again.
	maxMarks = 64
	// defaultCompactBytes is the log size above which an outbox whose moves
	// are all acknowledged is rewritten.
	defaultCompactBytes = 64 << 10
)

// Record kinds.
const (
	kindMove = "move" // a move to publish
	kindAck  = "ack"  // the broker acknowledged the move (Game, Seq) and all before it
	kindMark = "mark" // after compaction: the highest seq enqueued for Game
)

type record struct {
	Kind string         `json:"k"`
	Move *protocol.Move `json:"m,omitempty"`
	Game string         `json:"g,omitempty"`
	Seq  int            `json:"s,omitempty"`
}

// ErrClosed is returned by the methods of a closed Outbox or Client.
var ErrClosed = errors.New("mqtt: closed")

// Outbox is the durable queue of moves waiting for the broker's
// acknowledgement. It is an append-only log of checksummed records in a
// state directory: Enqueue appends a move and fsyncs before returning, Ack
// appends an acknowledgement (synced lazily: losing one to a power cut only
// publishes the move again, which consumers drop by seq), and once every move
// is acknowledged the log is compacted to one mark per game.
//
// Enqueue is idempotent by (game, seq), so the daemon can enqueue its whole
// journal again at start-up. The zero value is not usable; call OpenOutbox.
// An Outbox is safe for concurrent use.
type Outbox struct {
	mu        sync.Mutex
	path      string
	f         *os.File
	size      int64           // bytes of valid records in f
	pending   []protocol.Move // not acknowledged, in order
	high      map[string]int  // highest seq enqueued per game
	games     []string        // games by last enqueue, oldest first
	unsynced  bool            // ack records written since the last fsync
	recovered error
	broken    error
	closed    bool
	notify    chan struct{}

	compactBytes int64
}

// OpenOutbox opens (creating it if needed) the outbox in dir.
//
// A torn or corrupt record (a crash in the middle of a write, a bad sector)
// ends what is used: the records before it are kept, the whole file is copied
// aside as outbox.log.corrupt-<time> and the log is cut back to the last good
// record. Recovered then reports what was dropped, and where; the daemon
// should enqueue its journal again (which it does at every start).
func OpenOutbox(dir string) (*Outbox, error) {
	if dir == "" {
		return nil, errors.New("mqtt: outbox: no state directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("mqtt: outbox: %w", err)
	}
	o := &Outbox{
		path:         filepath.Join(dir, OutboxFile),
		high:         map[string]int{},
		notify:       make(chan struct{}, 1),
		compactBytes: defaultCompactBytes,
	}
	f, err := os.OpenFile(o.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("mqtt: outbox: %w", err)
	}
	o.f = f
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mqtt: outbox %s: read: %w", o.path, err)
	}
	good, bad := o.replay(data)
	o.size = good
	if bad != nil {
		if err := o.cutCorrupt(data, good, bad); err != nil {
			f.Close()
			return nil, err
		}
	}
	if len(o.pending) == 0 && o.size > o.compactBytes {
		if err := o.compact(); err != nil {
			f.Close()
			return nil, err
		}
	}
	if len(o.pending) > 0 {
		o.signal()
	}
	return o, nil
}

// replay applies the valid records of data and returns how many bytes they
// take, and what is wrong with the record after them, if anything. A record
// that does not decode or apply ends them as a damaged one does, and so does
// a damaged record in the middle: the outbox only holds what the journal
// holds, and the journal is enqueued again at start-up.
func (o *Outbox) replay(data []byte) (int64, error) {
	recs, end, bad := durable.Scan(data)
	for i, rec := range recs {
		var r record
		if err := json.Unmarshal(rec.Body, &r); err != nil {
			return rec.Offset, fmt.Errorf("record %d at offset %d: undecodable: %v", i+1, rec.Offset, err)
		}
		if err := o.apply(r); err != nil {
			return rec.Offset, fmt.Errorf("record %d at offset %d: invalid: %v", i+1, rec.Offset, err)
		}
	}
	if bad != nil {
		return end, bad
	}
	return end, nil
}

func (o *Outbox) apply(r record) error {
	switch r.Kind {
	case kindMove:
		if r.Move == nil {
			return errors.New("move record without a move")
		}
		if err := r.Move.Validate(); err != nil {
			return err
		}
		o.pending = append(o.pending, *r.Move)
		o.raise(r.Move.Game, r.Move.Seq)
	case kindAck:
		o.dropThrough(r.Game, r.Seq)
	case kindMark:
		if r.Game == "" || r.Seq < 1 {
			return fmt.Errorf("mark record for game %q seq %d", r.Game, r.Seq)
		}
		o.raise(r.Game, r.Seq)
	default:
		return fmt.Errorf("unknown record kind %q", r.Kind)
	}
	return nil
}

func (o *Outbox) raise(game string, seq int) {
	if seq > o.high[game] {
		o.high[game] = seq
	}
	for i, g := range o.games {
		if g == game {
			o.games = append(o.games[:i], o.games[i+1:]...)
			break
		}
	}
	o.games = append(o.games, game)
}

// dropThrough removes the pending move (game, seq) and every move before it.
func (o *Outbox) dropThrough(game string, seq int) bool {
	for i, m := range o.pending {
		if m.Game == game && m.Seq == seq {
			o.pending = append([]protocol.Move(nil), o.pending[i+1:]...)
			return true
		}
	}
	return false
}

func (o *Outbox) cutCorrupt(data []byte, good int64, bad error) error {
	aside := fmt.Sprintf("%s.corrupt-%s", o.path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := durable.CutTail(o.f, filepath.Dir(o.path), data, good, aside); err != nil {
		return fmt.Errorf("mqtt: outbox %s: %v; %w", o.path, bad, err)
	}
	o.recovered = fmt.Errorf("mqtt: outbox %s: %v: dropped %d bytes from it on (copy in %s); moves after the last good record must be enqueued again",
		o.path, bad, int64(len(data))-good, filepath.Base(aside))
	return nil
}

// HighestSeq reads the outbox of dir without changing it and returns the
// highest seq enqueued for game (0: none, or no outbox): every seq that may
// have been published. The game never hands one of them out again
// (game.Opts.Published). Only the valid records before any damage count.
func HighestSeq(dir, game string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, OutboxFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("mqtt: outbox: %w", err)
	}
	o := &Outbox{high: map[string]int{}}
	o.replay(data)
	return o.high[game], nil
}

// Recovered reports a torn or corrupt tail found by OpenOutbox, and what was
// done about it, or nil if the log was sound.
func (o *Outbox) Recovered() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.recovered
}

// Enqueue appends m to the outbox and fsyncs it. It is a no-op returning nil
// when (m.Game, m.Seq) was already enqueued, or a later seq of the game was.
// Seqs may skip (a game skips those a damaged journal record may have used,
// game.Skip): enqueueing seq n+2 after n is fine.
func (o *Outbox) Enqueue(m protocol.Move) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("mqtt: outbox: enqueue: %w", err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.usable(); err != nil {
		return err
	}
	if m.Seq <= o.high[m.Game] {
		return nil
	}
	m.Time = m.Time.UTC()
	if err := o.append(record{Kind: kindMove, Move: &m}, true); err != nil {
		return fmt.Errorf("mqtt: outbox %s: enqueue game %q seq %d: %w", o.path, m.Game, m.Seq, err)
	}
	o.unsynced = false
	o.pending = append(o.pending, m)
	o.raise(m.Game, m.Seq)
	o.signal()
	return nil
}

func (o *Outbox) usable() error {
	if o.closed {
		return ErrClosed
	}
	return o.broken
}

// append writes one record; on failure it cuts the log back to its last
// good size so that no partial record stays in the middle of the log.
func (o *Outbox) append(r record, sync bool) error {
	payload, err := json.Marshal(r)
	if err != nil {
		return err
	}
	size, err := durable.Append(o.f, o.size, payload, sync)
	if err != nil {
		if durable.IsCutBack(err) {
			o.broken = fmt.Errorf("mqtt: outbox %s: %w: outbox unusable until restart", o.path, err)
		}
		return err
	}
	o.size = size
	return nil
}

func (o *Outbox) signal() {
	select {
	case o.notify <- struct{}{}:
	default:
	}
}

// Notify returns a channel that receives a value after Enqueue adds a move.
func (o *Outbox) Notify() <-chan struct{} { return o.notify }

// Next returns the first move not acknowledged yet.
func (o *Outbox) Next() (protocol.Move, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) == 0 {
		return protocol.Move{}, false
	}
	return o.pending[0], true
}

// Pending returns the moves not acknowledged yet, in order.
func (o *Outbox) Pending() []protocol.Move {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]protocol.Move(nil), o.pending...)
}

// Ack records that the broker acknowledged the move (game, seq), and so every
// move before it. Acknowledging a move that is not pending is a no-op.
func (o *Outbox) Ack(game string, seq int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.usable(); err != nil {
		return err
	}
	found := false
	for _, m := range o.pending {
		if m.Game == game && m.Seq == seq {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	if err := o.append(record{Kind: kindAck, Game: game, Seq: seq}, false); err != nil {
		return fmt.Errorf("mqtt: outbox %s: ack game %q seq %d: %w", o.path, game, seq, err)
	}
	o.unsynced = true
	o.dropThrough(game, seq)
	if len(o.pending) == 0 && o.size > o.compactBytes {
		if err := o.compact(); err != nil {
			return err
		}
	}
	return nil
}

// compact rewrites the log as one mark per remembered game. It must only be
// called when no move is pending.
func (o *Outbox) compact() error {
	if len(o.games) > maxMarks {
		for _, g := range o.games[:len(o.games)-maxMarks] {
			delete(o.high, g)
		}
		o.games = append([]string(nil), o.games[len(o.games)-maxMarks:]...)
	}
	var buf []byte
	for _, g := range o.games {
		payload, err := json.Marshal(record{Kind: kindMark, Game: g, Seq: o.high[g]})
		if err == nil {
			buf, err = durable.Encode(buf, payload)
		}
		if err != nil {
			return err
		}
	}
	if err := durable.WriteAtomic(o.path, buf); err != nil {
		return fmt.Errorf("mqtt: outbox %s: compact: %w", o.path, err)
	}
	f, err := os.OpenFile(o.path, os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		o.broken = fmt.Errorf("mqtt: outbox %s: reopen after compaction: %w", o.path, err)
		return o.broken
	}
	o.f.Close()
	o.f = f
	o.size = int64(len(buf))
	o.unsynced = false
	return nil
}

// Sync fsyncs the acknowledgements written since the last fsync.
func (o *Outbox) Sync() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || !o.unsynced {
		return nil
	}
	if err := o.f.Sync(); err != nil {
		return fmt.Errorf("mqtt: outbox %s: sync: %w", o.path, err)
	}
	o.unsynced = false
	return nil
}

// Close syncs and closes the log. Pending moves stay in it for the next
// OpenOutbox.
func (o *Outbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	err := o.f.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("mqtt: outbox %s: close: %w", o.path, err)
	}
	return nil
}
