package game

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// snapshot is what a resumed session must give back.
type snapshot struct {
	ID        string
	Tags      Tags
	Start     string
	Position  string
	Moves     []Move
	Published []Move
	Result    rules.Result
	Reason    Reason
	OfferBy   rules.Color
	Offered   bool
}

func snap(s *Session) snapshot {
	r, why := s.Result()
	by, ok := s.DrawOffer()
	return snapshot{s.ID(), s.Tags(), s.Start().String(), s.Position().String(), s.Moves(), s.Published(), r, why, by, ok}
}

func reopen(t *testing.T, s *Session, dir string) *Session {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if d := r.Recovered(); d != nil {
		t.Errorf("Recovered = %v", d)
	}
	return r
}

func TestResume(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start string
		run   func(t *testing.T, s *Session)
	}{
		{"moves and take-backs", "", func(t *testing.T, s *Session) {
			playAll(t, s, "Nc3W", "Nb6B", "Nb3W")
			if _, err := s.TakeBack(); err != nil {
				t.Fatal(err)
			}
			playAll(t, s, "Nb3N")
		}},
		{"pending offer", "", func(t *testing.T, s *Session) {
			playAll(t, s, "Nc3W")
			if err := s.OfferDraw(rules.White); err != nil {
				t.Fatal(err)
			}
		}},
		{"declined offer", "", func(t *testing.T, s *Session) {
			if err := s.OfferDraw(rules.White); err != nil {
				t.Fatal(err)
			}
			if err := s.DeclineDraw(rules.Black); err != nil {
				t.Fatal(err)
			}
		}},
		{"resigned", "", func(t *testing.T, s *Session) {
			playAll(t, s, "Nc3W")
			if err := s.Resign(rules.Black); err != nil {
				t.Fatal(err)
			}
		}},
		{"agreed", "", func(t *testing.T, s *Session) {
			if err := s.OfferDraw(rules.Black); err != nil {
				t.Fatal(err)
			}
			if err := s.AcceptDraw(rules.White); err != nil {
				t.Fatal(err)
			}
		}},
		{"threefold claimed", "", func(t *testing.T, s *Session) {
			playAll(t, s, shuffle...)
			if _, err := s.ClaimDraw(rules.Black, ClaimThreefold); err != nil {
				t.Fatal(err)
			}
		}},
		{"fifty claimed", fifty, func(t *testing.T, s *Session) {
			playAll(t, s, "Nc3W")
			if _, err := s.ClaimDraw(rules.White, ClaimAny); err != nil {
				t.Fatal(err)
			}
		}},
		{"mate, taken back, played again", mateInOne, func(t *testing.T, s *Session) {
			playAll(t, s, "Rb5N")
			if _, err := s.TakeBack(); err != nil {
				t.Fatal(err)
			}
			playAll(t, s, "Rb5N")
		}},
		{"rich", rich, func(t *testing.T, s *Session) { playAll(t, s, richGame...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := newGame(t, tc.start)
			tc.run(t, s)
			want := snap(s)
			r := reopen(t, s, dir)
			if got := snap(r); !reflect.DeepEqual(got, want) {
				t.Errorf("resumed:\n got %+v\nwant %+v", got, want)
			}
			// The game goes on where it was, with the next seq.
			if want.Result != rules.NoResult {
				return
			}
			pos := r.Position()
			mv, err := r.Play(pos.LegalMoves(nil)[0])
			if err != nil {
				t.Fatal(err)
			}
			if mv.Seq != len(want.Published)+1 {
				t.Errorf("next seq = %d, want %d", mv.Seq, len(want.Published)+1)
			}
		})
	}
}

// damagedGame plays a game and returns its state dir, the journal's bytes,
// the offset of the last record (a move) and the moves before it.
func damagedGame(t *testing.T) (dir string, data []byte, last int, before []Move) {
	s, dir := newGame(t, "")
	playAll(t, s, "Nc3W", "Nb6B", "Nb3W")
	if _, err := s.TakeBack(); err != nil {
		t.Fatal(err)
	}
	if err := s.OfferDraw(rules.Black); err != nil {
		t.Fatal(err)
	}
	before = s.Moves()
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	playAll(t, s, "Nb3N")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, readFile(t, s.Path()), int(fi.Size()), before
}

// stateWith makes a state dir whose current game's journal holds data.
func stateWith(t *testing.T, id string, data []byte) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, GamesDir, id+JournalExt)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, CurrentFile), []byte(id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

const gameID = "20250102-030405-000"

func TestTornTail(t *testing.T) {
	_, data, last, before := damagedGame(t)
	n := len(data) - last // the last record's size
	for cut := last; cut < len(data); cut++ {
		dir, path := stateWith(t, gameID, data[:cut])
		s, err := Open(dir, testOpts())
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if got := s.Moves(); !reflect.DeepEqual(got, before) {
			t.Errorf("cut at %d: moves %v, want %v", cut, longs(got), longs(before))
		}
		if by, ok := s.DrawOffer(); !ok || by != rules.Black {
			t.Errorf("cut at %d: the offer before the tail is lost", cut)
		}
		d := s.Recovered()
		if cut == last {
			if d != nil {
				t.Errorf("clean cut at a record boundary reported %v", d)
			}
			s.Close()
			continue
		}
		k := cut - last
		reason := fmt.Sprintf("truncated record (%d of %d bytes)", k, n)
		if k < frameHead {
			reason = fmt.Sprintf("truncated record header (%d of %d bytes)", k, frameHead)
		}
		aside := path + ".damaged-" + gameID
		want := &Damage{Path: path, Record: 7, Offset: int64(last), Lost: int64(k), Reason: reason,
			What: describe(data[last:cut]), Aside: aside}
		if !reflect.DeepEqual(d, want) {
			t.Errorf("cut at %d: Recovered:\n got %+v\nwant %+v", cut, d, want)
		}
		if got := readFile(t, path); !bytes.Equal(got, data[:last]) {
			t.Errorf("cut at %d: journal not cut back to the last good record (%d bytes, want %d)", cut, len(got), last)
		}
		if got := readFile(t, aside); !bytes.Equal(got, data[:cut]) {
			t.Errorf("cut at %d: the copy aside differs from the damaged file", cut)
		}
		// The lost move was never returned: it is played again with its seq.
		mv := playAll(t, s, "Nb3N")
		if mv[0].Seq != 4 {
			t.Errorf("cut at %d: replayed move seq %d, want 4", cut, mv[0].Seq)
		}
		s.Close()
	}
	// The message of one cut, in full.
	dir, path := stateWith(t, gameID, data[:len(data)-1])
	s, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := fmt.Sprintf("game: journal %s: record 7 at offset %d: truncated record (%d of %d bytes), a torn write: cut %d bytes (a move record, seq 4, a1W-b3N), copy in %s.journal.damaged-%s",
		path, last, n-1, n, n-1, gameID, gameID)
	if got := s.Recovered().Error(); got != want {
		t.Errorf("Recovered:\n got %s\nwant %s", got, want)
	}
}

func TestZeroedTail(t *testing.T) {
	_, data, last, _ := damagedGame(t)
	// Some file systems show zeros where a power cut interrupted a write.
	dir, path := stateWith(t, gameID, append(data[:last:last], make([]byte, 4096)...))
	s, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := fmt.Sprintf("game: journal %s: record 7 at offset %d: zero-filled tail (4096 bytes), a torn write: cut 4096 bytes (an unreadable record), copy in %s.journal.damaged-%s",
		path, last, gameID, gameID)
	if d := s.Recovered(); d == nil || d.Error() != want {
		t.Errorf("Recovered:\n got %v\nwant %s", d, want)
	}
}

// A damaged header is no game: Open says so and changes nothing.
func TestCorruptHeader(t *testing.T) {
	_, data, _, _ := damagedGame(t)
	_, n, _ := frame(data)
	for i := 0; i < n; i++ {
		bad := bytes.Clone(data)
		bad[i] ^= 0x01
		dir, path := stateWith(t, gameID, bad)
		_, err := Open(dir, testOpts())
		var je *JournalError
		if !errors.As(err, &je) || je.Path != path || je.Record != 1 || je.Offset != 0 {
			t.Fatalf("byte %d flipped: %v, want a JournalError for record 1", i, err)
		}
		if !strings.HasSuffix(err.Error(), fmt.Sprintf("a valid record follows at offset %d: the journal is corrupt in the middle", n)) {
			t.Errorf("byte %d flipped: %v", i, err)
		}
		if got := readFile(t, path); !bytes.Equal(got, bad) {
			t.Errorf("byte %d flipped: the journal was changed", i)
		}
	}
}

// A damaged record in the middle is cut out and reported; the records
// after it are kept as far as they replay: a lost move takes the moves
// after it with it, a lost draw offer nothing else. The damaged file is
// kept aside, the seqs the lost records may have used are skipped, and the
// journal opens clean the next time.
func TestCorruptMiddle(t *testing.T) {
	_, data, _, _ := damagedGame(t)
	var offs []int
	for off := 0; off < len(data); {
		_, n, err := frame(data[off:])
		if err != nil {
			t.Fatal(err)
		}
		offs = append(offs, off)
		off += n
	}
	offs = append(offs, len(data))
	// header, Nc3W, Nb6B, Nb3W, take-back, Black's draw offer, Nb3N.
	for _, tc := range []struct {
		rec   int // damaged, from 0
		moves string
		offer bool
		what  string
	}{
		{2, "[Nc3W]", false, "a move record, seq "},
		{5, "[Nc3W Nb6B Nb3N]", false, "an offer record"},
	} {
		for _, i := range []int{offs[tc.rec], offs[tc.rec] + 30, offs[tc.rec+1] - 2} {
			bad := bytes.Clone(data)
			bad[i] ^= 0x01
			dir, _ := stateWith(t, gameID, bad)
			s, err := Open(dir, testOpts())
			if err != nil {
				t.Fatalf("record %d byte %d flipped: %v", tc.rec+1, i, err)
			}
			var sans []string
			for _, m := range s.Moves() {
				sans = append(sans, m.SAN)
			}
			_, offered := s.DrawOffer()
			d := s.Recovered()
			if fmt.Sprint(sans) != tc.moves || offered != tc.offer || d == nil || d.Record != tc.rec+1 ||
				d.Offset != int64(offs[tc.rec]) || !strings.Contains(d.Reason, "in the middle") || !strings.HasPrefix(d.What, tc.what) {
				t.Errorf("record %d byte %d flipped: moves %v offer %v damage %+v", tc.rec+1, i, sans, offered, d)
			}
			if s.Skipped() == nil {
				t.Errorf("record %d: no seqs skipped", tc.rec+1)
			}
			if got := readFile(t, d.Aside); !bytes.Equal(got, bad) {
				t.Errorf("record %d: the damaged file was not kept aside", tc.rec+1)
			}
			s.Close()
			s2, err := Open(dir, testOpts())
			if err != nil || s2.Recovered() != nil {
				t.Fatalf("reopened: %v %v", err, s2.Recovered())
			}
			s2.Close()

		}
	}
}

// TestReplayErrors: well-framed records the rules refuse.
func TestReplayErrors(t *testing.T) {
	s, _ := newGame(t, "")
	playAll(t, s, "Nc3W")
	s.Close()
	good := readFile(t, s.Path())
	start := st3d.Start()
	afterNc3 := start.Play(mustMove(t, start, "Nc3W")).String()
	rec := func(e entry) []byte {
		b, err := encode(&e)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	header := good[:bytes.IndexByte(good, '\n')+1]
	for _, tc := range []struct {
		name string
		data []byte
		want string // after "record N at offset M: "
		rec  int
	}{
		{"illegal move", append(bytes.Clone(good), rec(entry{T: kindMove, Seq: 2, Move: "b7B-b4N", Pos: "x"})...),
			`move: seq 2: st3d: move "b7B-b4N": not legal in this position`, 3},
		{"seq gap", append(bytes.Clone(good), rec(entry{T: kindMove, Seq: 3, Move: "a8B-b6B"})...),
			"move: seq 3, want 2", 3},
		{"short form", append(bytes.Clone(header), rec(entry{T: kindMove, Seq: 1, Move: "Nc3W", Pos: afterNc3})...),
			`move: seq 1: "Nc3W" is not a long form (d1W-c3W)`, 2},
		{"other position", append(bytes.Clone(header), rec(entry{T: kindMove, Seq: 1, Move: "d1W-c3W", Pos: "QL1:w"})...),
			fmt.Sprintf(`move: seq 1 d1W-c3W: the rules give %q, the journal "QL1:w"`, afterNc3), 2},
		{"take back of another seq", append(bytes.Clone(good), rec(entry{T: kindTakeBack, Seq: 2})...),
			"takeback: takes back seq 2, the last move is seq 1", 3},
		{"accept without offer", append(bytes.Clone(good), rec(entry{T: kindResult, Side: "black", Result: "1/2-1/2", Reason: ReasonAgreement})...),
			"result: black has no draw offer to answer", 3},
		{"wrong result", append(bytes.Clone(good), rec(entry{T: kindResult, Side: "black", Result: "0-1", Reason: ReasonResignation})...),
			`result: result "0-1", want "1-0" for resignation by black`, 3},
		{"claim that does not hold", append(bytes.Clone(good), rec(entry{T: kindResult, Side: "white", Result: "1/2-1/2", Reason: ReasonThreefold})...),
			"result: no draw by threefold repetition: the position has stood once, 3 times are needed", 3},
		{"bad side", append(bytes.Clone(good), rec(entry{T: kindOffer, Side: "blue"})...),
			`offer: side "blue": want "white" or "black"`, 3},
		{"unknown kind", append(bytes.Clone(good), rec(entry{T: "castle"})...),
			"castle: unknown record kind", 3},
		{"move first", rec(entry{T: kindMove, Seq: 1, Move: "d1W-c3W"}),
			`"move" record where the header should be`, 1},
		{"other game", rec(entry{T: kindHeader, V: 1, Game: "20250102-030405-001", System: "st3d", Start: start.String()}),
			`header names game "20250102-030405-001", the file game "20250102-030405-000"`, 1},
		{"unknown system", rec(entry{T: kindHeader, V: 1, Game: gameID, System: "kriegspiel", Start: start.String()}),
			`unknown rule system "kriegspiel"`, 1},
		{"newer format", rec(entry{T: kindHeader, V: 2, Game: gameID}), "format version 2, want 1", 1},
		{"not JSON", []byte(fmt.Sprintf("00000003 %08x abc\n", crc32.Checksum([]byte("abc"), castagnoli))), "body: invalid character 'a' looking for beginning of value", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, path := stateWith(t, gameID, tc.data)
			_, err := Open(dir, testOpts())
			off := 0
			for range tc.rec - 1 {
				off += bytes.IndexByte(tc.data[off:], '\n') + 1
			}
			want := fmt.Sprintf("game: journal %s: record %d at offset %d: %s", path, tc.rec, off, tc.want)
			if err == nil || err.Error() != want {
				t.Errorf("Open:\n got %v\nwant %s", err, want)
			}
			if got := readFile(t, path); !bytes.Equal(got, tc.data) {
				t.Error("the journal was changed")
			}
		})
	}
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{nil, "no header record"},
		{header[:40], "no header record: truncated record (40 of " + fmt.Sprint(len(header)) + " bytes)"},
	} {
		dir, path := stateWith(t, gameID, tc.data)
		_, err := Open(dir, testOpts())
		if want := "game: journal " + path + ": " + tc.want; err == nil || err.Error() != want {
			t.Errorf("Open:\n got %v\nwant %s", err, want)
		}
	}
}

// hookFile calls onSync before each fsync, and may fail writes.
type hookFile struct {
	file
	onSync       func() error
	failTruncate bool
}

func (h *hookFile) Sync() error {
	if err := h.onSync(); err != nil {
		return err
	}
	return h.file.Sync()
}

func (h *hookFile) Truncate(n int64) error {
	if h.failTruncate {
		return errors.New("injected truncate failure")
	}
	return h.file.Truncate(n)
}

// TestSyncBeforeEffect: a move is in the journal and fsync'd before it
// takes effect in memory and before Play returns; a failed fsync refuses it.
func TestSyncBeforeEffect(t *testing.T) {
	var (
		s        *Session
		hf       *hookFile
		failNext error
		synced   []string // the journal's last line at each fsync
		applied  []int    // moves in memory at each fsync
	)
	o := testOpts()
	o.openFile = func(name string, flag int) (file, error) {
		f, err := openFile(name, flag)
		if err != nil {
			return nil, err
		}
		hf = &hookFile{file: f, onSync: func() error {
			if err := failNext; err != nil {
				failNext = nil
				return err
			}
			b, _ := os.ReadFile(name)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			synced = append(synced, lines[len(lines)-1])
			if s != nil {
				applied = append(applied, len(s.line))
			}
			return nil
		}}
		return hf, nil
	}
	s, err := New(t.TempDir(), st3d.System, "", Tags{}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mv, _, err := s.PlayNotation("Nc3W")
	if err != nil {
		t.Fatal(err)
	}
	if len(synced) != 2 || !strings.Contains(synced[1], `"t":"move","seq":1,"move":"d1W-c3W"`) {
		t.Fatalf("synced records: %q", synced)
	}
	if !reflect.DeepEqual(applied, []int{0}) {
		t.Errorf("moves in memory at the fsync: %v, want [0]", applied)
	}
	size := len(readFile(t, s.Path()))

	// A failed fsync: the move is refused, the journal cut back.
	failNext = errors.New("injected sync failure")
	_, _, err = s.PlayNotation("Nb6B")
	want := fmt.Sprintf("game %s: journal %s: record 3 at offset %d: injected sync failure", s.ID(), s.Path(), size)
	if err == nil || err.Error() != want {
		t.Errorf("Play:\n got %v\nwant %s", err, want)
	}
	if got := len(readFile(t, s.Path())); got != size {
		t.Errorf("journal is %d bytes after the failure, want %d", got, size)
	}
	if got := s.Published(); !reflect.DeepEqual(got, []Move{mv}) {
		t.Errorf("Published after the failure = %v", longs(got))
	}
	// The next try goes through, with the seq that was never handed out.
	if mv := playAll(t, s, "Nb6B"); mv[0].Seq != 2 {
		t.Errorf("seq after the failure = %d, want 2", mv[0].Seq)
	}

	// A failed fsync that cannot be cut back: the journal refuses more.
	failNext, hf.failTruncate = errors.New("injected sync failure"), true
	if _, _, err := s.PlayNotation("Nb3W"); err == nil {
		t.Fatal("Play succeeded")
	}
	_, _, err = s.PlayNotation("Nb3W")
	if err == nil || !strings.Contains(err.Error(), "cutting back failed too (injected truncate failure): journal unusable until the game is opened again") {
		t.Errorf("Play after a broken journal: %v", err)
	}
	if got := seqs(s.Moves()); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("moves = %v, want [1 2]", got)
	}
}
