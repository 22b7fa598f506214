package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	// A "moves" decision holds a game's moves from index From on (what a
	// set's state showed that the journal did not hold yet), the mover's
	// clock after each in ms (-1: not shown), and the game's start position
	// and time control.
	From int `json:"from,omitempty"`
	// Set is the set (or table) a decision concerns: addset, removeset,
	// assign, replay, an exhibition game.
	Set      string    `json:"set,omitempty"`
	Entrant  *Entrant  `json:"entrant,omitempty"`
	Settings *Settings `json:"settings,omitempty"`
	Moves    []string  `json:"moves,omitempty"`
	Clk      []int64   `json:"clk,omitempty"`
	Start    string    `json:"start,omitempty"`
	TC       string    `json:"tc,omitempty"`
	// Key is the set's public key a "key" decision enrols, a "key-forget"
	// drops, an "addset" enrols with the set.
	Key string `json:"key,omitempty"`
}

// journal is the event's append-only, fsync'd log of decisions.
type journal struct {
	f    *os.File
	size int64
}

const journalName = "event.journal"

// Damage is a damaged stretch of the event's journal that Open cut out: the
// record where it starts (counted from 1 among the records read), its
// offset, the bytes cut, what is wrong and what the bytes seem to hold.
// Decisions after it that no longer apply (a start whose pairing was lost)
// are listed in Skipped. The damaged file is kept whole in Aside.
type Damage struct {
	Record  int      `json:"record"`
	Offset  int64    `json:"offset"`
	Bytes   int64    `json:"bytes"`
	Reason  string   `json:"reason"`
	What    string   `json:"what"`
	Aside   string   `json:"aside"`
	Skipped []string `json:"skipped,omitempty"`
}

func (d Damage) String() string {
	s := fmt.Sprintf("record %d at offset %d: %s: cut %d bytes (%s), the damaged file kept as %s",
		d.Record, d.Offset, d.Reason, d.Bytes, d.What, filepath.Base(d.Aside))
	if len(d.Skipped) > 0 {
		s += "; decisions that no longer apply: " + strings.Join(d.Skipped, "; ")
	}
	return s
}

var (
	lostOp    = regexp.MustCompile(`"op":"(\w+)"`)
	lostRound = regexp.MustCompile(`"round":(\d+)`)
	lostBoard = regexp.MustCompile(`"board":(\d+)`)
)

// describe says what damaged bytes seem to hold: the first decision's op,
// round and board, and how many lines.
func describe(b []byte) string {
	var parts []string
	if m := lostOp.FindSubmatch(b); m != nil {
		parts = append(parts, article(string(m[1]))+" decision")
	} else {
		parts = append(parts, "an unreadable record")
	}
	if m := lostRound.FindSubmatch(b); m != nil {
		parts = append(parts, "round "+string(m[1]))
	}
	if m := lostBoard.FindSubmatch(b); m != nil {
		parts = append(parts, "board "+string(m[1]))
	}
	if n := bytes.Count(b, []byte{'\n'}); n > 1 {
		parts = append(parts, fmt.Sprintf("%d lines", n))
	}
	return strings.Join(parts, ", ")
}

// article puts "a" or "an" before word.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// openJournal opens dir's journal, creating it, and returns its decisions.
// A torn last record (a write cut short) is cut off and kept aside. A
// damaged record in the middle is cut out and reported (a Damage), the
// records after it kept: the whole file is saved aside first, then the
// journal is rewritten without the damaged bytes.
func openJournal(dir string) (*journal, []Decision, []Damage, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("event: state dir %s: %w", dir, err)
	}
	name := filepath.Join(dir, journalName)
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, fmt.Errorf("event: journal %s: %w", name, err)
	}
	var recs []durable.Record
	var damage []Damage
	var clean []byte
	off := int64(0)
	for {
		rs, end, bad := durable.Scan(data[off:])
		recs = append(recs, rs...)
		if len(rs) > 0 {
			clean = append(clean, data[off+rs[0].Offset:off+end]...)
		}
		if bad == nil {
			break
		}
		stop := int64(len(data))
		if !bad.Tail() {
			stop = off + bad.Next
		}
		damage = append(damage, Damage{Record: len(recs) + 1, Offset: off + bad.Offset, Bytes: stop - off - bad.Offset,
			Reason: bad.Reason, What: describe(data[off+bad.Offset : stop])})
		if bad.Tail() {
			break
		}
		off = stop
	}
	if len(damage) > 0 {
		aside := name + ".damaged"
		for n := 2; ; n++ {
			if _, err := os.Stat(aside); errors.Is(err, fs.ErrNotExist) {
				break
			}
			aside = fmt.Sprintf("%s.damaged-%d", name, n)
		}
		if err := durable.WriteFile(aside, data); err != nil {
			return nil, nil, nil, fmt.Errorf("event: journal %s: saving the damaged file aside: %w", name, err)
		}
		if err := durable.WriteAtomic(name, clean); err != nil {
			return nil, nil, nil, fmt.Errorf("event: journal %s: writing it without the damaged records: %w", name, err)
		}
		for i := range damage {
			damage[i].Aside = aside
		}
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("event: journal %s: %w", name, err)
	}
	var ds []Decision
	for i, r := range recs {
		var d Decision
		if err := json.Unmarshal(r.Body, &d); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("event: journal %s: record %d: %w", name, i+1, err)
		}
		ds = append(ds, d)
	}
	return &journal{f: f, size: int64(len(clean))}, ds, damage, nil
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
