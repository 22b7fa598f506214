package game

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/internal/durable"
)

// ClockExt ends the name of a game's clock checkpoint, beside its journal:
// <state>/games/<id>.clock.
const ClockExt = ".clock"

// savedClock is the body of a clock checkpoint: the clock, and where in the
// game it was taken (the moves handed out, the moves of the line and the
// clock changes journaled since the last of them), so that a checkpoint a
// later move or take-back made stale is never used.
type savedClock struct {
	Game    string           `json:"game"`
	All     int              `json:"all"`
	Line    int              `json:"line"`
	Changes int              `json:"changes"`
	Clock   clock.Checkpoint `json:"clock"`
}

// clockPath is the checkpoint's file.
func (s *Session) clockPath() string {
	return strings.TrimSuffix(s.j.path, JournalExt) + ClockExt
}

// SaveClock keeps cp, the clock as it runs between two moves, in the
// game's checkpoint file (one framed record, replaced each time), so that a
// restart does not refund the thinking time since the last move. With sync
// it replaces the file atomically and fsyncs it (a clean shutdown, the end
// of a game); without, it overwrites the file in place and leaves it to the
// kernel: cheap enough to do every second, it survives the process's crash
// (the page cache has it), and a power cut that tears it only loses the
// checkpoint (its checksum then fails and it is ignored). It is refused in
// a game without a clock and after Close.
func (s *Session) SaveClock(cp clock.Checkpoint, sync bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if s.clk.ctl.None() {
		return fmt.Errorf("game %s: save clock: %w", s.id, ErrNoClock)
	}
	body, err := json.Marshal(savedClock{Game: s.id, All: len(s.all), Line: len(s.line), Changes: len(s.clk.changes), Clock: cp})
	if err != nil {
		return fmt.Errorf("game %s: save clock: %w", s.id, err)
	}
	rec, err := durable.Encode(nil, body)
	if err != nil {
		return fmt.Errorf("game %s: save clock: %w", s.id, err)
	}
	path := s.clockPath()
	if sync {
		err = durable.WriteAtomic(path, rec)
	} else {
		err = overwrite(path, rec, s.clk.savedSize)
	}
	if err != nil {
		s.clk.savedSize = 0
		return fmt.Errorf("game %s: save clock: %w", s.id, err)
	}
	s.clk.savedSize = int64(len(rec))
	return nil
}

// overwrite writes data over the start of name, without an fsync, and cuts
// the file there unless it is known to be no longer (size, the length
// written last; 0 unknown): a truncate costs a metadata change, several
// times the write.
func overwrite(name string, data []byte, size int64) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	if err == nil && (size == 0 || int64(len(data)) < size) {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SavedClock returns the last checkpoint SaveClock kept, if it still
// applies: no move was handed out or taken back since. changes is the
// number of ClockChanges journaled before it: a rebuilt clock applies
// those, then the checkpoint (clock.Clock.Restore), then the rest. A
// missing, torn or stale checkpoint is not there (ok false).
func (s *Session) SavedClock() (cp clock.Checkpoint, changes int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.clockPath())
	if err != nil {
		return clock.Checkpoint{}, 0, false
	}
	body, _, err := durable.Decode(data)
	if err != nil {
		return clock.Checkpoint{}, 0, false
	}
	var v savedClock
	if json.Unmarshal(body, &v) != nil || v.Game != s.id || v.All != len(s.all) || v.Line != len(s.line) ||
		v.Changes < 0 || v.Changes > len(s.clk.changes) {
		return clock.Checkpoint{}, 0, false
	}
	return v.Clock, v.Changes, true
}
