package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/internal/durable"
)

// Layout of the state directory.
const (
	// GamesDir is the directory of the journals, under the state directory.
	GamesDir = "games"
	// CurrentFile names the game in progress (its id and a newline).
	CurrentFile = "current"
	// JournalExt ends a journal's name: <state>/games/<id>.journal.
	JournalExt = ".journal"
)

// FormatVersion is the journal format written in the header record.
const FormatVersion = 1

// Records are framed by internal/durable: one record a line,
// "LLLLLLLL CCCCCCCC {json}\n" (length and CRC-32C of the JSON body).
const frameHead = durable.HeadSize

// castagnoli is the table of the records' checksum, for tests that frame a
// record by hand.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Record kinds (entry.T).
const (
	kindHeader   = "header"
	kindMove     = "move"
	kindTakeBack = "takeback"
	kindOffer    = "offer"
	kindDecline  = "decline"
	kindResult   = "result"
	kindClock    = "clock" // an arbiter's change of the clock (clock.go)
	kindSkip     = "skip"  // seqs up to Seq are used: they may have been published (Skipped)
	kindTeach    = "teach" // the teacher's settings (teach.go)
	kindHint     = "hint"  // a hint given to Side (teach.go)
)

// entry is the JSON body of a journal record.
type entry struct {
	T string `json:"t"`
	// header
	V      int    `json:"v,omitempty"`
	Game   string `json:"game,omitempty"`
	System string `json:"system,omitempty"`
	Start  string `json:"start,omitempty"`
	Tags   *Tags  `json:"tags,omitempty"`
	// move (Seq also on takeback: the seq of the move taken back)
	Seq  int    `json:"seq,omitempty"`
	Move string `json:"move,omitempty"` // long form
	SAN  string `json:"san,omitempty"`
	Pos  string `json:"pos,omitempty"` // position after the move
	// Clock is the clock after the move, in a game with a clock.
	Clock *clock.Reading `json:"clock,omitempty"`
	// clock: the change (Action, D in ms) and the side it concerns (Side)
	Action ClockAction `json:"action,omitempty"`
	MS     int64       `json:"ms,omitempty"`
	// offer, decline, result: the side acting
	Side   string `json:"side,omitempty"`
	Result string `json:"result,omitempty"`
	Reason Reason `json:"reason,omitempty"`
	// teach: the settings
	Teach *Teaching `json:"teach,omitempty"`
	Time  time.Time `json:"time"`
}

// file is what the journal needs of an *os.File (tests inject failures).
type file = durable.File

func openFile(name string, flag int) (file, error) { return os.OpenFile(name, flag, 0o644) }

// JournalError is a journal that cannot be used: a record that does not
// replay, or a bad record followed by good ones.
type JournalError struct {
	Path   string
	Record int   // the record, counted from 1; 0 for the file as a whole
	Offset int64 // its byte offset
	Err    error
}

func (e *JournalError) Error() string {
	if e.Record == 0 {
		return fmt.Sprintf("game: journal %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("game: journal %s: record %d at offset %d: %v", e.Path, e.Record, e.Offset, e.Err)
}

func (e *JournalError) Unwrap() error { return e.Err }

// Damage is a torn or corrupt tail that Open found at the end of a journal
// (a write cut short by a power cut, a bad sector), and what it did: the
// whole file was copied to Aside and the journal cut back to Offset, the
// end of the last good record. The game resumes from the records before.
type Damage struct {
	Path   string // the journal
	Record int    // the first bad record, counted from 1
	Offset int64  // its offset, where the journal now ends
	Lost   int64  // bytes cut off
	Reason string // what is wrong with the record
	What   string // what the lost bytes seem to hold, best effort
	Aside  string // the copy of the damaged file
	// Complete: the first bad record was written to its end and damaged
	// afterwards (a flipped bit, a bad sector), not torn by a crash in its
	// write: it may have been published. Seqs is how many seqs the cut
	// records may have used (one a record); Open skips them.
	Complete bool
	Seqs     int
}

func (d *Damage) Error() string {
	what := "a torn write"
	if d.Complete {
		what = "a complete record damaged after it was written (it may have been published)"
	}
	return fmt.Sprintf("game: journal %s: record %d at offset %d: %s, %s: cut %d bytes (%s), copy in %s",
		d.Path, d.Record, d.Offset, d.Reason, what, d.Lost, d.What, filepath.Base(d.Aside))
}

// Skip is a run of seqs Open skipped: they may have been published, but the
// journal no longer holds their records, so the next move takes To+1 and no
// display that applied one of them drops it as a repeat.
type Skip struct {
	Game     string
	From, To int
	Why      string
}

func (k *Skip) Error() string {
	return fmt.Sprintf("game %s: seqs %d-%d skipped (%s): the next move is seq %d", k.Game, k.From, k.To, k.Why, k.To+1)
}

// encode frames e as one record.
func encode(e *entry) ([]byte, error) {
	body, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return durable.Encode(nil, body)
}

// frame reads the record at the start of data. It returns the body and the
// record's size, or why there is no valid record there.
func frame(data []byte) (body []byte, n int, err error) { return durable.Decode(data) }

// rawRecord is a framed record found by scan.
type rawRecord struct {
	off  int
	body []byte
}

// scan splits data into its valid records. When a bad record ends them, it
// returns the offset of the first bad byte and what is wrong; a bad record
// followed by a valid one is a *JournalError.
func scan(path string, data []byte) (recs []rawRecord, good int, bad *durable.Corrupt, err error) {
	rs, end, c := durable.Scan(data)
	if c != nil && !c.Tail() {
		return nil, 0, nil, &JournalError{Path: path, Record: c.Record, Offset: c.Offset,
			Err: fmt.Errorf("%s, and a valid record follows at offset %d: the journal is corrupt in the middle", c.Reason, c.Next)}
	}
	recs = make([]rawRecord, len(rs))
	for i, r := range rs {
		recs[i] = rawRecord{int(r.Offset), r.Body}
	}
	return recs, int(end), c, nil
}

var (
	lostKind = regexp.MustCompile(`"t":"(\w+)"`)
	lostSeq  = regexp.MustCompile(`"seq":(\d+)`)
	lostMove = regexp.MustCompile(`"move":"([^"\\]+)"`)
)

// describe says what the bytes of a damaged tail seem to hold.
func describe(tail []byte) string {
	var parts []string
	if m := lostKind.FindSubmatch(tail); m != nil {
		if k := string(m[1]); strings.ContainsRune("aeiou", rune(k[0])) {
			parts = append(parts, "an "+k+" record")
		} else {
			parts = append(parts, "a "+k+" record")
		}
	} else {
		parts = append(parts, "an unreadable record")
	}
	if m := lostSeq.FindSubmatch(tail); m != nil {
		parts = append(parts, "seq "+string(m[1]))
	}
	if m := lostMove.FindSubmatch(tail); m != nil {
		parts = append(parts, string(m[1]))
	}
	if n := bytes.Count(tail, []byte{'\n'}); n > 1 {
		parts = append(parts, fmt.Sprintf("%d lines", n))
	}
	return strings.Join(parts, ", ")
}

// journal is an open journal file, written at its end.
type journal struct {
	path    string
	f       file
	size    int64 // bytes of valid records
	records int
	broken  error
}

// append writes e and fsyncs it. On failure it cuts the file back to its
// last good size (and syncs that), so that no partial record stays; if that
// fails too the journal is broken and refuses every further append.
func (j *journal) append(e *entry) error {
	if j.broken != nil {
		return j.broken
	}
	body, err := json.Marshal(e)
	if err == nil {
		var size int64
		if size, err = durable.Append(j.f, j.size, body, true); err == nil {
			j.size = size
			j.records++
			return nil
		}
	}
	err = fmt.Errorf("journal %s: record %d at offset %d: %w", j.path, j.records+1, j.size, err)
	if durable.IsCutBack(err) {
		j.broken = fmt.Errorf("%w: journal unusable until the game is opened again", err)
		return j.broken
	}
	return err
}

// appendAll writes the entries and fsyncs them once (a group commit: a
// slow disk costs one fsync for every move waiting). On failure it cuts
// the file back to its size before them, as append does.
func (j *journal) appendAll(es []*entry) error {
	if j.broken != nil {
		return j.broken
	}
	size := j.size
	var err error
	for _, e := range es {
		var body []byte
		if body, err = json.Marshal(e); err != nil {
			break
		}
		if size, err = durable.Append(j.f, size, body, false); err != nil {
			break
		}
	}
	if err == nil {
		err = j.f.Sync()
	}
	if err == nil {
		j.size = size
		j.records += len(es)
		return nil
	}
	if cerr := durable.Truncate(j.f, j.size); cerr != nil {
		err = &durable.CutBackError{Err: err, Cut: cerr}
	}
	err = fmt.Errorf("journal %s: records %d-%d at offset %d: %w", j.path, j.records+1, j.records+len(es), j.size, err)
	if durable.IsCutBack(err) {
		j.broken = fmt.Errorf("%w: journal unusable until the game is opened again", err)
		return j.broken
	}
	return err
}

func (j *journal) close() error {
	if j.f == nil {
		return nil // read-only
	}
	if err := j.f.Close(); err != nil {
		return fmt.Errorf("game: journal %s: close: %w", j.path, err)
	}
	return nil
}

// idLayout is the time part of a game id; the id adds milliseconds:
// 20250102-030405-123.
const idLayout = "20060102-150405"

func formatID(t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%s-%03d", t.Format(idLayout), t.Nanosecond()/int(time.Millisecond))
}

func parseID(id string) (time.Time, bool) {
	if len(id) != len(idLayout)+4 || id[len(idLayout)] != '-' {
		return time.Time{}, false
	}
	t, err := time.Parse(idLayout, id[:len(idLayout)])
	ms, err2 := strconv.Atoi(id[len(idLayout)+1:])
	if err != nil || err2 != nil || ms < 0 {
		return time.Time{}, false
	}
	return t.Add(time.Duration(ms) * time.Millisecond), true
}

// Games lists the ids of the games in the state directory, oldest first.
func Games(stateDir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(stateDir, GamesDir))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("game: %w", err)
	}
	var ids []string
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), JournalExt)
		if !ok || e.IsDir() {
			continue
		}
		if _, ok := parseID(id); ok {
			ids = append(ids, id)
		}
	}
	return ids, nil // ReadDir sorts by name, which sorts by time
}

// newID returns an id after every id in games (so that ids sort by creation
// even when the clock went back, as on a Raspberry Pi without a real-time
// clock before NTP).
func newID(now time.Time, games []string) string {
	t := now.UTC().Truncate(time.Millisecond)
	if n := len(games); n > 0 {
		if last, ok := parseID(games[n-1]); ok && !t.After(last) {
			t = last.Add(time.Millisecond)
		}
	}
	return formatID(t)
}

// validID refuses ids that could name a file elsewhere.
func validID(id string) bool {
	_, ok := parseID(id)
	return ok
}

// decode reads a record's body.
func decode(body []byte) (*entry, error) {
	var e entry
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	return &e, nil
}
