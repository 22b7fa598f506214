package durable

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// bodies are the records of the test log: JSON, as both users write.
var bodies = []string{
	`{"t":"header","v":1,"game":"20250102-030405-000"}`,
	`{"t":"move","seq":1,"move":"d1W-c3W"}`,
	`{"k":"ack","g":"g1","s":1}`,
}

// testLog returns the framed records of bodies and their offsets, the last
// being the end of the log.
func testLog(t testing.TB) (data []byte, offs []int) {
	t.Helper()
	for _, b := range bodies {
		offs = append(offs, len(data))
		var err error
		if data, err = Encode(data, []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	return data, append(offs, len(data))
}

func bodiesOf(recs []Record) []string {
	var s []string
	for _, r := range recs {
		s = append(s, string(r.Body))
	}
	return s
}

func TestEncode(t *testing.T) {
	got, err := Encode([]byte("x"), []byte(`{"k":"mark","g":"g1","s":20}`))
	if err != nil {
		t.Fatal(err)
	}
	// The checksum computed bit by bit with the Castagnoli polynomial.
	want := "x0000001c 7b6e9fc5 {\"k\":\"mark\",\"g\":\"g1\",\"s\":20}\n"
	if sum := Checksum([]byte("123456789")); sum != 0xe3069283 {
		t.Fatalf("Checksum of the check string = %08x, want e3069283 (CRC-32C)", sum)
	}
	if string(got) != want {
		t.Errorf("Encode = %q, want %q", got, want)
	}
	for _, n := range []int{0, MaxBody + 1} {
		if _, err := Encode(nil, make([]byte, n)); err == nil || err.Error() != fmt.Sprintf("record of %d bytes, want 1 to %d", n, MaxBody) {
			t.Errorf("Encode of %d bytes: %v", n, err)
		}
	}
	if _, err := Encode(nil, bytes.Repeat([]byte("a"), MaxBody)); err != nil {
		t.Errorf("Encode of MaxBody bytes: %v", err)
	}
}

func TestScanClean(t *testing.T) {
	data, offs := testLog(t)
	for _, tc := range []struct {
		name string
		data []byte
		n    int
	}{{"empty", nil, 0}, {"one", data[:offs[1]], 1}, {"all", data, len(bodies)}} {
		recs, end, bad := Scan(tc.data)
		if bad != nil || end != int64(len(tc.data)) || !slices.Equal(bodiesOf(recs), bodies[:tc.n]) {
			t.Errorf("%s: Scan = %q, %d, %v", tc.name, bodiesOf(recs), end, bad)
		}
		for i, r := range recs {
			if r.Offset != int64(offs[i]) {
				t.Errorf("%s: record %d at %d, want %d", tc.name, i+1, r.Offset, offs[i])
			}
		}
	}
	// A body may hold any byte, a newline too: the length frames it.
	raw, _ := Encode(nil, []byte("a\nb\x00\n"))
	body, n, err := Decode(raw)
	if err != nil || string(body) != "a\nb\x00\n" || n != len(raw) {
		t.Errorf("Decode = %q, %d, %v", body, n, err)
	}
}

// TestTornLast: every cut inside the last record is a torn tail.
func TestTornLast(t *testing.T) {
	data, offs := testLog(t)
	last, n := offs[2], offs[3]-offs[2]
	for cut := last + 1; cut < len(data); cut++ {
		recs, end, bad := Scan(data[:cut])
		k := cut - last
		reason := fmt.Sprintf("truncated record (%d of %d bytes)", k, n)
		if k < HeadSize {
			reason = fmt.Sprintf("truncated record header (%d of %d bytes)", k, HeadSize)
		}
		want := &Corrupt{Kind: Torn, Reason: reason, Record: 3, Offset: int64(last), Bytes: int64(k), Next: -1}
		if !reflect.DeepEqual(bad, want) {
			t.Errorf("cut at %d: %+v, want %+v", cut, bad, want)
		}
		if end != int64(last) || !reflect.DeepEqual(bodiesOf(recs), bodies[:2]) {
			t.Errorf("cut at %d: %d records ending at %d, want 2 ending at %d", cut, len(recs), end, last)
		}
		if !bad.Tail() {
			t.Errorf("cut at %d: not a tail", cut)
		}
	}
	_, _, bad := Scan(data[:len(data)-1])
	if want := fmt.Sprintf("record 3 at offset %d: truncated record (%d of %d bytes)", last, n-1, n); bad.Error() != want {
		t.Errorf("Error() = %q, want %q", bad, want)
	}
}

// TestFlippedBit: every bit of every record. A bad record is found where it
// starts; it is the tail only when it is the last record.
func TestFlippedBit(t *testing.T) {
	data, offs := testLog(t)
	for rec := range bodies {
		for i := offs[rec]; i < offs[rec+1]; i++ {
			for bit := range 8 {
				bad := bytes.Clone(data)
				bad[i] ^= 1 << bit
				recs, end, c := Scan(bad)
				where := fmt.Sprintf("record %d, byte %d, bit %d", rec+1, i-offs[rec], bit)
				if c == nil {
					t.Fatalf("%s: not detected", where)
				}
				if c.Record != rec+1 || c.Offset != int64(offs[rec]) || end != c.Offset || len(recs) != rec {
					t.Fatalf("%s: %v, after %d records ending at %d", where, c, len(recs), end)
				}
				if c.Bytes != int64(len(data)-offs[rec]) {
					t.Errorf("%s: Bytes = %d, want %d", where, c.Bytes, len(data)-offs[rec])
				}
				next := int64(-1)
				if rec+1 < len(bodies) {
					next = int64(offs[rec+1])
				}
				if c.Next != next {
					t.Errorf("%s: Next = %d, want %d", where, c.Next, next)
				}
				var kinds []Kind
				switch j := i - offs[rec]; {
				case j < 8: // length: no newline where it says, or past the end, or too big, or a newline of a later record
					kinds = []Kind{Malformed, Torn, BadLength, BadChecksum}
				case j < 17 && j != 8: // checksum: not lower-case hex, or another value
					kinds = []Kind{Malformed, BadChecksum}
				case j == 8 || j == 17 || i == offs[rec+1]-1: // the spaces, the newline
					kinds = []Kind{Malformed}
				default:
					kinds = []Kind{BadChecksum}
				}
				if !slices.Contains(kinds, c.Kind) {
					t.Errorf("%s: kind %v (%s), want one of %v", where, c.Kind, c.Reason, kinds)
				}
			}
		}
	}
	bad := bytes.Clone(data)
	bad[offs[1]+HeadSize+3] ^= 0x01
	_, _, c := Scan(bad)
	if want := fmt.Sprintf("record 2 at offset %d: checksum mismatch, and a valid record follows at offset %d", offs[1], offs[2]); c.Error() != want {
		t.Errorf("Error() = %q, want %q", c, want)
	}
}

// TestTornOrDamaged: a short record or zeros to the end are a torn write
// (its write never returned); a record written to its end and then damaged
// (every single bit flip of the last record) is complete, so that a caller
// never hands out again what it may have published (issue 22).
func TestTornOrDamaged(t *testing.T) {
	data, offs := testLog(t)
	last := offs[2]
	for cut := last + 1; cut < len(data); cut++ {
		if _, _, c := Scan(data[:cut]); c == nil || c.Complete {
			t.Errorf("cut at %d: %+v, want a torn record", cut, c)
		}
	}
	for i := last; i < len(data); i++ {
		for bit := range 8 {
			bad := bytes.Clone(data)
			bad[i] ^= 1 << bit
			if _, _, c := Scan(bad); c == nil || !c.Complete || c.Offset != int64(last) {
				t.Errorf("byte %d bit %d of the last record: %+v, want a complete damaged record", i-last, bit, c)
			}
		}
	}
	for _, tc := range []struct {
		name string
		log  []byte
		want bool
	}{
		{"zeros in place of the last record", append(bytes.Clone(data[:last]), make([]byte, 60)...), false},
		{"header on disk, body zeros", append(bytes.Clone(data[:last+HeadSize]), make([]byte, len(data)-last-HeadSize)...), false},
		{"damaged record, then a torn one", append(bytes.Clone(data[:len(data)-2]), "X\n0000"...), true},
		{"garbage header, no newline", append(bytes.Clone(data[:last]), "zzzzzzzz"...), false},
	} {
		if _, _, c := Scan(tc.log); c == nil || c.Complete != tc.want {
			t.Errorf("%s: %+v, want Complete %v", tc.name, c, tc.want)
		}
	}
}

func TestZeroTail(t *testing.T) {
	data, offs := testLog(t)
	for _, k := range []int{1, 7, HeadSize, 100, 4096} {
		for _, tc := range []struct {
			name string
			log  []byte
			good int
		}{
			{"after the log", append(bytes.Clone(data), make([]byte, k)...), 3},
			{"in place of the last record", append(bytes.Clone(data[:offs[2]]), make([]byte, k)...), 2},
		} {
			recs, end, c := Scan(tc.log)
			want := &Corrupt{Kind: Zeros, Reason: fmt.Sprintf("zero-filled tail (%d bytes)", k), Record: tc.good + 1,
				Offset: int64(offs[tc.good]), Bytes: int64(k), Next: -1}
			if !reflect.DeepEqual(c, want) || len(recs) != tc.good || end != want.Offset {
				t.Errorf("%d zeros %s: %+v after %d records, want %+v after %d", k, tc.name, c, len(recs), want, tc.good)
			}
		}
	}
	// Zeros inside a record whose header made it to disk are not a zero tail.
	torn := append(bytes.Clone(data[:offs[2]+HeadSize]), make([]byte, offs[3]-offs[2]-HeadSize)...)
	if _, _, c := Scan(torn); c == nil || c.Kind != Malformed || !c.Tail() {
		t.Errorf("zeroed body: %+v, want a malformed tail", c)
	}
}

func TestBadHeader(t *testing.T) {
	data, offs := testLog(t)
	for _, tc := range []struct {
		head   string
		kind   Kind
		reason string
	}{
		{"00100001 00000000 ", BadLength, "record length 1048577 out of range (1 to 1048576)"},
		{"ffffffff 00000000 ", BadLength, "record length 4294967295 out of range (1 to 1048576)"},
		{"00000000 00000000 ", BadLength, "record length 0 out of range (1 to 1048576)"},
		{"0000001G 00000000 ", Malformed, "malformed record header"},
		{"0000001A 00000000 ", Malformed, "malformed record header"}, // upper case: a flipped 0x20 bit
		{"0000001a_00000000 ", Malformed, "malformed record header"},
		{"0000001a 00000000_", Malformed, "malformed record header"},
		{"-000001a 00000000 ", Malformed, "malformed record header"},
	} {
		// In place of the middle record, and of the last one.
		for _, rec := range []int{1, 2} {
			bad := bytes.Clone(data)
			copy(bad[offs[rec]:], tc.head)
			recs, end, c := Scan(bad)
			next := int64(-1)
			if rec == 1 {
				next = int64(offs[2])
			}
			// The record was written to its newline: damaged, not torn.
			want := &Corrupt{Kind: tc.kind, Reason: tc.reason, Record: rec + 1, Offset: int64(offs[rec]),
				Bytes: int64(len(data) - offs[rec]), Next: next, Complete: true}
			if !reflect.DeepEqual(c, want) || len(recs) != rec || end != want.Offset {
				t.Errorf("header %q in record %d: %+v, want %+v", tc.head, rec+1, c, want)
			}
		}
	}
	// Decode says why, without a place.
	if _, _, err := Decode([]byte("ffffffff 00000000 {}\n")); err == nil || err.Error() != "record length 4294967295 out of range (1 to 1048576)" {
		t.Errorf("Decode: %v", err)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Torn: "torn", Zeros: "trailing zeros", Malformed: "malformed",
		BadLength: "length out of range", BadChecksum: "checksum mismatch", 0: "Kind(0)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind %d: %q, want %q", k, got, want)
		}
	}
}

// memFile is a File in memory that fails on demand.
type memFile struct {
	data                          []byte
	synced                        int // bytes at the last fsync
	syncs                         int
	short                         int // write only this many bytes, then fail
	failWrite, failSync, failTrun error
}

func (m *memFile) Write(p []byte) (int, error) {
	if m.failWrite != nil {
		n := min(m.short, len(p))
		m.data = append(m.data, p[:n]...)
		return n, m.failWrite
	}
	m.data = append(m.data, p...)
	return len(p), nil
}

func (m *memFile) Sync() error {
	if err := m.failSync; err != nil {
		m.failSync = nil
		return err
	}
	m.synced, m.syncs = len(m.data), m.syncs+1
	return nil
}

func (m *memFile) Truncate(n int64) error {
	if m.failTrun != nil {
		return m.failTrun
	}
	m.data = m.data[:n]
	return nil
}

func (m *memFile) Close() error { return nil }

func TestAppend(t *testing.T) {
	data, offs := testLog(t)
	errWrite, errSync, errTrunc := errors.New("disk full"), errors.New("I/O error"), errors.New("read-only")
	for _, tc := range []struct {
		name                  string
		sync                  bool
		short                 int
		write, syncErr, trunc error
		want                  error // nil, or the error Append returns
		wantData              []byte
		wantSize              int64
		wantSyncs             int
		cutBack               bool
	}{
		{name: "synced", sync: true, wantData: data, wantSize: int64(len(data)), wantSyncs: 1},
		{name: "not synced", wantData: data, wantSize: int64(len(data))},
		{name: "short write", short: 10, write: errWrite, want: errWrite, wantData: data[:offs[2]], wantSize: int64(offs[2]), wantSyncs: 1},
		{name: "short write unsynced", short: 30, write: errWrite, want: errWrite, wantData: data[:offs[2]], wantSize: int64(offs[2]), wantSyncs: 1},
		{name: "failed fsync", sync: true, syncErr: errSync, want: errSync, wantData: data[:offs[2]], wantSize: int64(offs[2]), wantSyncs: 1},
		{name: "failed write, failed cut-back", short: 10, write: errWrite, trunc: errTrunc, cutBack: true,
			want: &CutBackError{Err: errWrite, Cut: errTrunc}, wantData: append(bytes.Clone(data[:offs[2]]), data[offs[2]:offs[2]+10]...), wantSize: int64(offs[2])},
		{name: "failed fsync, failed cut-back", sync: true, syncErr: errSync, trunc: errTrunc, cutBack: true,
			want: &CutBackError{Err: errSync, Cut: errTrunc}, wantData: data, wantSize: int64(offs[2])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &memFile{data: bytes.Clone(data[:offs[2]])}
			f.short, f.failWrite, f.failSync, f.failTrun = tc.short, tc.write, tc.syncErr, tc.trunc
			size, err := Append(f, int64(offs[2]), []byte(bodies[2]), tc.sync)
			if !reflect.DeepEqual(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if tc.want != nil && !errors.Is(err, tc.write) && !errors.Is(err, tc.syncErr) {
				t.Errorf("error %v does not wrap the write or fsync error", err)
			}
			if IsCutBack(err) != tc.cutBack {
				t.Errorf("IsCutBack = %t, want %t", !tc.cutBack, tc.cutBack)
			}
			if size != tc.wantSize || !bytes.Equal(f.data, tc.wantData) {
				t.Errorf("size %d, file %q; want %d, %q", size, f.data, tc.wantSize, tc.wantData)
			}
			if f.syncs != tc.wantSyncs || (tc.wantSyncs > 0 && f.synced != len(tc.wantData)) {
				t.Errorf("%d fsyncs, the last of %d bytes; want %d of %d", f.syncs, f.synced, tc.wantSyncs, len(tc.wantData))
			}
		})
	}
	if _, err := Append(&memFile{}, 0, nil, true); err == nil {
		t.Error("Append of an empty body succeeded")
	}
	err := &CutBackError{Err: errSync, Cut: errTrunc}
	if want := "I/O error; cutting back failed too (read-only)"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
	if !IsCutBack(fmt.Errorf("log: %w", err)) || IsCutBack(errSync) {
		t.Error("IsCutBack does not look through wrapping, or sees a cut-back in a plain error")
	}
}

// TestAppendFile: appends to a real file, reopened as a log is, scan back.
func TestAppendFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var size int64
	for i, b := range bodies {
		if size, err = Append(f, size, []byte(b), i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := testLog(t)
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) || size != int64(len(want)) {
		t.Fatalf("file %q (size %d, %v), want %q", got, size, err, want)
	}
	// A torn tail cut back, then appended after.
	if _, err := f.Write([]byte("00000040 1234")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	_, end, bad := Scan(data)
	if bad == nil || bad.Kind != Torn || !bad.Tail() || end != size {
		t.Fatalf("Scan: %v ending at %d", bad, end)
	}
	aside := path + ".damaged"
	if err := CutTail(f, filepath.Dir(path), data, end, aside); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(aside); !bytes.Equal(got, data) {
		t.Error("the copy aside differs from the damaged file")
	}
	if size, err = Append(f, end, []byte(bodies[0]), true); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	recs, end, bad := Scan(data)
	if bad != nil || end != size || !reflect.DeepEqual(bodiesOf(recs), append(slices.Clone(bodies), bodies[0])) {
		t.Errorf("after the cut-back and an append: %q, %v", bodiesOf(recs), bad)
	}
}

func TestCutTailErrors(t *testing.T) {
	dir := t.TempDir()
	err := CutTail(&memFile{}, dir, []byte("x"), 0, filepath.Join(dir, "no", "such"))
	if err == nil || !strings.HasPrefix(err.Error(), "saving it aside: ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("aside in a missing directory: %v", err)
	}
	errTrunc := errors.New("read-only")
	err = CutTail(&memFile{failTrun: errTrunc}, dir, []byte("x"), 0, filepath.Join(dir, "aside"))
	if err == nil || err.Error() != "cutting it back: read-only" || !errors.Is(err, errTrunc) {
		t.Errorf("failed truncate: %v", err)
	}
	err = CutTail(&memFile{data: []byte("x")}, filepath.Join(dir, "gone"), []byte("x"), 0, filepath.Join(dir, "aside2"))
	if err == nil || !strings.HasPrefix(err.Error(), "syncing its directory: ") {
		t.Errorf("missing directory: %v", err)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "current")
	for _, content := range []string{"20250102-030405-000\n", "20250102-030405-001\n", ""} {
		if err := WriteAtomic(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(name); err != nil || string(got) != content {
			t.Errorf("after writing %q: %q, %v", content, got, err)
		}
		if _, err := os.Stat(name + ".tmp"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the temporary file is left: %v", err)
		}
	}
	// The rename fails (a directory is in the way): the old content stays,
	// and the temporary file goes.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(blocked, []byte("new")); err == nil {
		t.Error("WriteAtomic over a non-empty directory succeeded")
	}
	if _, err := os.Stat(blocked + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is left after a failed rename: %v", err)
	}
	// The temporary file cannot be made.
	if err := WriteAtomic(filepath.Join(dir, "no", "such"), []byte("x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteAtomic in a missing directory: %v", err)
	}
	if err := SyncDir(filepath.Join(dir, "no")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("SyncDir of a missing directory: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such"), []byte("x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteFile in a missing directory: %v", err)
	}
}

func benchAppend(b *testing.B, sync bool) {
	f, err := os.OpenFile(filepath.Join(b.TempDir(), "log"), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	body := []byte(`{"t":"move","seq":12,"move":"d1W-c3W","san":"Nc3W","pos":"` + strings.Repeat("x", 300) + `","time":"2025-01-02T03:04:06Z"}`)
	b.SetBytes(int64(HeadSize + len(body) + 1))
	b.ReportAllocs()
	var size int64
	for b.Loop() {
		if size, err = Append(f, size, body, sync); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppend: one record of a game journal's move size, fsync'd, on the
// file system of the test's temporary directory.
func BenchmarkAppend(b *testing.B) { benchAppend(b, true) }

// BenchmarkAppendNoSync: the same without the fsync (an outbox ack).
func BenchmarkAppendNoSync(b *testing.B) { benchAppend(b, false) }

// BenchmarkScan: a 1000-record log.
func BenchmarkScan(b *testing.B) {
	var data []byte
	for range 1000 {
		data, _ = Encode(data, []byte(bodies[1]))
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, bad := Scan(data); bad != nil {
			b.Fatal(bad)
		}
	}
}
