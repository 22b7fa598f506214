package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/tournament"
)

// Decision is one journaled step of the event.
type Decision struct {
	Time time.Time `json:"ts"`
	// Op is what was decided: "create", "pair" (the games of a round, as
	// paired or set by the arbiter), "start", "result", "swap", "add",
	// "withdraw", "clock" (a clock command sent to every set), "replay".
	Op      string              `json:"op"`
	Round   int                 `json:"round,omitempty"`
	Board   int                 `json:"board,omitempty"`
	Result  string              `json:"result,omitempty"`
	GameID  string              `json:"game_id,omitempty"`
	Reason  string              `json:"reason,omitempty"`
	By      string              `json:"by,omitempty"` // "arbiter", "set <id>"
	Opts    *tournament.Opts    `json:"opts,omitempty"`
	Players []tournament.Player `json:"players,omitempty"`
	Games   []tournament.Game   `json:"games,omitempty"`
	Config  *Config             `json:"config,omitempty"`
}

// journal is the event's append-only, fsync'd log of decisions.
type journal struct {
	f    *os.File
	size int64
}

const journalName = "event.journal"

// openJournal opens dir's journal, creating it, and returns its decisions.
// A torn last record (a write cut short) is cut off and kept aside; damage
// in the middle is an error the arbiter must look at.
func openJournal(dir string) (*journal, []Decision, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("event: state dir %s: %w", dir, err)
	}
	name := filepath.Join(dir, journalName)
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("event: journal %s: %w", name, err)
	}
	recs, end, bad := durable.Scan(data)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("event: journal %s: %w", name, err)
	}
	if bad != nil {
		if !bad.Tail() {
			f.Close()
			return nil, nil, fmt.Errorf("event: journal %s: %v (a record in the middle is damaged; move the file aside to start again)", name, bad)
		}
		if err := durable.CutTail(f, dir, data, end, name+".damaged"); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("event: journal %s: %w", name, err)
		}
	}
	var ds []Decision
	for i, r := range recs {
		var d Decision
		if err := json.Unmarshal(r.Body, &d); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("event: journal %s: record %d: %w", name, i+1, err)
		}
		ds = append(ds, d)
	}
	return &journal{f: f, size: end}, ds, nil
}

// append writes d and fsyncs it.
func (j *journal) append(d Decision) error {
	body, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("event: journal: %w", err)
	}
	size, err := durable.Append(j.f, j.size, body, true)
	if err != nil {
		return fmt.Errorf("event: journal: %w", err)
	}
	j.size = size
	return nil
}

func (j *journal) close() error { return j.f.Close() }
