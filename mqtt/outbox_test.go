package mqtt

import (
	"bytes"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/protocol"
)

func seqs(ms []protocol.Move) []string {
	var s []string
	for _, m := range ms {
		s = append(s, fmt.Sprintf("%s/%d", m.Game, m.Seq))
	}
	return s
}

func mustOpen(t *testing.T, dir string) *Outbox {
	t.Helper()
	o, err := OpenOutbox(dir)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOutboxEnqueueAckReopen(t *testing.T) {
	type op struct {
		enqueue *protocol.Move // else ack
		game    string
		seq     int
		wantErr string
	}
	enq := func(g string, s int) op { m := mqtttest.Move(g, s); return op{enqueue: &m} }
	ack := func(g string, s int) op { return op{game: g, seq: s} }
	tests := []struct {
		name    string
		ops     []op
		pending []string
	}{
		{"order kept", []op{enq("a", 1), enq("a", 2), enq("a", 3)}, []string{"a/1", "a/2", "a/3"}},
		{"re-enqueue is a no-op", []op{enq("a", 1), enq("a", 2), enq("a", 1), enq("a", 2), enq("a", 3)}, []string{"a/1", "a/2", "a/3"}},
		{"re-enqueue after ack is a no-op", []op{enq("a", 1), enq("a", 2), ack("a", 2), enq("a", 1), enq("a", 2), enq("a", 3)}, []string{"a/3"}},
		{"ack drops everything before", []op{enq("a", 1), enq("a", 2), enq("a", 3), ack("a", 2)}, []string{"a/3"}},
		{"ack of unknown is a no-op", []op{enq("a", 1), ack("a", 7), ack("b", 1)}, []string{"a/1"}},
		{"games interleave in order", []op{enq("a", 1), enq("b", 1), enq("a", 2), ack("a", 1)}, []string{"b/1", "a/2"}},
		{"gap accepted (seqs a damaged journal skipped)", []op{enq("a", 1), enq("a", 3)}, []string{"a/1", "a/3"}},
		{"below a gap is a no-op", []op{enq("a", 1), enq("a", 3), enq("a", 2)}, []string{"a/1", "a/3"}},
		{"seq 0 refused", []op{{enqueue: &protocol.Move{Game: "a", Seq: 0, Move: "x"}, wantErr: `mqtt: outbox: enqueue: game "a": seq 0: must be 1 or more`}}, nil},
		{"no game refused", []op{{enqueue: &protocol.Move{Seq: 1, Move: "x"}, wantErr: `mqtt: outbox: enqueue: move seq 1: empty game id`}}, nil},
		{"no move refused", []op{{enqueue: &protocol.Move{Game: "a", Seq: 1}, wantErr: `mqtt: outbox: enqueue: game "a" seq 1: empty move`}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			o := mustOpen(t, dir)
			for _, op := range tt.ops {
				var err error
				if op.enqueue != nil {
					err = o.Enqueue(*op.enqueue)
				} else {
					err = o.Ack(op.game, op.seq)
				}
				got := ""
				if err != nil {
					got = err.Error()
				}
				if got != op.wantErr {
					t.Fatalf("error %q, want %q", got, op.wantErr)
				}
			}
			if got := seqs(o.Pending()); !reflect.DeepEqual(got, tt.pending) {
				t.Fatalf("pending %v, want %v", got, tt.pending)
			}
			if err := o.Close(); err != nil {
				t.Fatal(err)
			}
			o = mustOpen(t, dir)
			defer o.Close()
			if err := o.Recovered(); err != nil {
				t.Fatal(err)
			}
			got := o.Pending()
			if !reflect.DeepEqual(seqs(got), tt.pending) {
				t.Fatalf("after reopen: pending %v, want %v", seqs(got), tt.pending)
			}
			for _, m := range got {
				if want := mqtttest.Move(m.Game, m.Seq); !reflect.DeepEqual(m, want) {
					t.Fatalf("after reopen: %+v, want %+v", m, want)
				}
			}
		})
	}
}

func TestOutboxCorruptTail(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(data []byte, recs []int) []byte // recs: offsets of records
		pending []string
		wantErr string // prefix after the path
	}{
		{"torn last record", func(d []byte, r []int) []byte { return d[:len(d)-3] }, []string{"a/1", "a/2"}, "record 3 at offset %d: truncated record ("},
		{"torn header", func(d []byte, r []int) []byte { return d[:r[2]+5] }, []string{"a/1", "a/2"}, "record 3 at offset %d: truncated record header (5 of 18 bytes)"},
		{"flipped byte in the middle", func(d []byte, r []int) []byte { d[r[1]+22] ^= 0x40; return d }, []string{"a/1"}, "record 2 at offset %d: checksum mismatch, and a valid record follows at offset "},
		{"zero length", func(d []byte, r []int) []byte { copy(d[r[2]:], "00000000"); return d }, []string{"a/1", "a/2"}, "record 3 at offset %d: record length 0 out of range (1 to 1048576)"},
		{"garbage appended", func(d []byte, r []int) []byte { return append(d, "7fffffff 00000000 \x01\x02\x03\x04\x05"...) }, []string{"a/1", "a/2", "a/3"}, "record 4 at offset %d: record length 2147483647 out of range (1 to 1048576)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			o := mustOpen(t, dir)
			var offs []int
			for s := 1; s <= 3; s++ {
				offs = append(offs, int(o.size))
				if err := o.Enqueue(mqtttest.Move("a", s)); err != nil {
					t.Fatal(err)
				}
			}
			offs = append(offs, int(o.size))
			o.Close()
			path := filepath.Join(dir, OutboxFile)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			orig := append([]byte(nil), tt.damage(data, offs)...)
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			o = mustOpen(t, dir)
			defer o.Close()
			rec := o.Recovered()
			if rec == nil {
				t.Fatal("Recovered() = nil, want the damage reported")
			}
			want := fmt.Sprintf("mqtt: outbox %s: "+tt.wantErr, path, offs[len(tt.pending)])
			if !strings.HasPrefix(rec.Error(), want) {
				t.Fatalf("Recovered() = %q, want prefix %q", rec, want)
			}
			if got := seqs(o.Pending()); !reflect.DeepEqual(got, tt.pending) {
				t.Fatalf("pending %v, want %v", got, tt.pending)
			}
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("copies aside: %v, want 1", aside)
			}
			if got, _ := os.ReadFile(aside[0]); !reflect.DeepEqual(got, orig) {
				t.Fatal("copy aside differs from the damaged file")
			}
			// The daemon enqueues its journal again: nothing is lost.
			for s := 1; s <= 3; s++ {
				if err := o.Enqueue(mqtttest.Move("a", s)); err != nil {
					t.Fatal(err)
				}
			}
			if got := seqs(o.Pending()); !reflect.DeepEqual(got, []string{"a/1", "a/2", "a/3"}) {
				t.Fatalf("after re-enqueue: pending %v", got)
			}
			o.Close()
			o2 := mustOpen(t, dir)
			defer o2.Close()
			if err := o2.Recovered(); err != nil {
				t.Fatalf("second open: %v", err)
			}
			if got := seqs(o2.Pending()); !reflect.DeepEqual(got, []string{"a/1", "a/2", "a/3"}) {
				t.Fatalf("second open: pending %v", got)
			}
		})
	}
}

func TestOutboxCompaction(t *testing.T) {
	dir := t.TempDir()
	o := mustOpen(t, dir)
	o.compactBytes = 512
	for s := 1; s <= 20; s++ {
		if err := o.Enqueue(mqtttest.Move("g1", s)); err != nil {
			t.Fatal(err)
		}
		if err := o.Ack("g1", s); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Enqueue(mqtttest.Move("g2", 1)); err != nil {
		t.Fatal(err)
	}
	if err := o.Ack("g2", 1); err != nil {
		t.Fatal(err)
	}
	o.compact()
	st, err := os.Stat(filepath.Join(dir, OutboxFile))
	if err != nil {
		t.Fatal(err)
	}
	// Two marks: {"k":"mark","g":"g1","s":20} and {"k":"mark","g":"g2","s":1},
	// each with an 18-byte header and a newline.
	if want := int64(2*19 + len(`{"k":"mark","g":"g1","s":20}`) + len(`{"k":"mark","g":"g2","s":1}`)); st.Size() != want {
		t.Fatalf("compacted size %d, want %d", st.Size(), want)
	}
	o.Close()
	o = mustOpen(t, dir)
	defer o.Close()
	for s := 1; s <= 20; s++ {
		if err := o.Enqueue(mqtttest.Move("g1", s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := o.Pending(); len(got) != 0 {
		t.Fatalf("re-enqueue after compaction: pending %v, want none", seqs(got))
	}
	if err := o.Enqueue(mqtttest.Move("g1", 21)); err != nil {
		t.Fatal(err)
	}
	if got := seqs(o.Pending()); !reflect.DeepEqual(got, []string{"g1/21"}) {
		t.Fatalf("pending %v", got)
	}
}

func TestOutboxMarksBounded(t *testing.T) {
	o := mustOpen(t, t.TempDir())
	defer o.Close()
	for g := 0; g < maxMarks+10; g++ {
		game := fmt.Sprint("g", g)
		if err := o.Enqueue(mqtttest.Move(game, 1)); err != nil {
			t.Fatal(err)
		}
		if err := o.Ack(game, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.compact(); err != nil {
		t.Fatal(err)
	}
	if len(o.high) != maxMarks || o.games[0] != "g10" {
		t.Fatalf("%d games remembered, oldest %s; want %d, g10", len(o.high), o.games[0], maxMarks)
	}
}

// TestHighestSeq (issue 22): the highest seq enqueued per game, read without
// changing the outbox, acknowledged and compacted moves included: what the
// game must never hand out again.
func TestHighestSeq(t *testing.T) {
	dir := t.TempDir()
	if got, err := HighestSeq(dir, "a"); got != 0 || err != nil {
		t.Errorf("no outbox: %d, %v", got, err)
	}
	o := mustOpen(t, dir)
	o.compactBytes = 1 // compact at every ack that empties it
	for _, m := range []protocol.Move{mqtttest.Move("a", 1), mqtttest.Move("a", 2), mqtttest.Move("b", 1), mqtttest.Move("a", 3)} {
		if err := o.Enqueue(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Ack("a", 3); err != nil {
		t.Fatal(err)
	}
	if err := o.Enqueue(mqtttest.Move("a", 5)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, OutboxFile))
	if err != nil {
		t.Fatal(err)
	}
	for game, want := range map[string]int{"a": 5, "b": 1, "c": 0} {
		if got, err := HighestSeq(dir, game); got != want || err != nil {
			t.Errorf("game %s: %d, %v; want %d", game, got, err, want)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, OutboxFile)); !bytes.Equal(before, after) {
		t.Error("HighestSeq changed the outbox")
	}
	o.Close()
}
