package game

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// The teacher's settings and the hints given are journaled: a game resumed
// after a restart has the latest settings and the hints counted.
func TestTeachingSurvivesARestart(t *testing.T) {
	s, dir := newGame(t, "")
	if _, ok := s.Teaching(); ok {
		t.Fatal("a new game has teaching settings before any was set")
	}
	first := Teaching{Locked: true, Limit: [2]int{3, 3}, Assist: [2]Assist{AssistFull, AssistFull}}
	last := Teaching{Locked: false, Limit: [2]int{5, -1}, Assist: [2]Assist{AssistFull, AssistNone}}
	for _, step := range []func() error{
		func() error { return s.SetTeaching(first) },
		func() error { return s.UseHint(rules.White, at(10)) },
		func() error { _, _, err := s.PlayNotation("Nc3W"); return err },
		func() error { return s.UseHint(rules.Black, at(11)) },
		func() error { return s.SetTeaching(last) },
		func() error { return s.UseHint(rules.White, at(12)) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	r, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, ok := r.Teaching(); !ok || got != last {
		t.Errorf("resumed teaching %+v %v, want %+v", got, ok, last)
	}
	if got := r.HintsUsed(); got != [2]int{2, 1} {
		t.Errorf("resumed hints used %v, want [2 1]", got)
	}
	if n := len(r.Moves()); n != 1 {
		t.Errorf("resumed with %d moves", n)
	}
}

// Settings out of range are refused and change neither the game nor its
// journal.
func TestTeachingRefusesBadSettings(t *testing.T) {
	s, _ := newGame(t, "")
	ok := Teaching{Limit: [2]int{3, 3}, Assist: [2]Assist{AssistFull, AssistExplain}}
	if err := s.SetTeaching(ok); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, s.Path())
	for _, tc := range []struct {
		name string
		t    Teaching
		want string
	}{
		{"unknown assistance", Teaching{Limit: [2]int{3, 3}, Assist: [2]Assist{AssistFull, "some"}},
			`game 20250102-030405-000: teach: black: assistance "some": want "full", "explain" or "none"`},
		{"no assistance", Teaching{Limit: [2]int{3, 3}},
			`game 20250102-030405-000: teach: white: assistance "": want "full", "explain" or "none"`},
		{"limit below -1", Teaching{Limit: [2]int{-2, 3}, Assist: [2]Assist{AssistFull, AssistFull}},
			"game 20250102-030405-000: teach: white: hint limit -2: want -1 (no limit) to 1000"},
		{"limit too high", Teaching{Limit: [2]int{3, 1001}, Assist: [2]Assist{AssistFull, AssistFull}},
			"game 20250102-030405-000: teach: black: hint limit 1001: want -1 (no limit) to 1000"},
	} {
		err := s.SetTeaching(tc.t)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
		}
	}
	if err := s.UseHint(rules.Color(7), at(3)); err == nil {
		t.Error("a hint for side 7 was taken")
	}
	if got, _ := s.Teaching(); got != ok {
		t.Errorf("settings %+v after refusals, want %+v", got, ok)
	}
	if !bytes.Equal(readFile(t, s.Path()), before) {
		t.Error("a refused setting changed the journal")
	}
}

// Replay refuses teach and hint records out of range, naming the record.
func TestTeachingReplayErrors(t *testing.T) {
	s, _ := newGame(t, "")
	s.Close()
	good := readFile(t, s.Path())
	rec := func(e entry) []byte {
		b, err := encode(&e)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		e    entry
		want string
	}{
		{"no settings", entry{T: kindTeach}, "teach: teach record without settings"},
		{"bad assistance", entry{T: kindTeach, Teach: &Teaching{Assist: [2]Assist{"all", AssistFull}}},
			`teach: white: assistance "all": want "full", "explain" or "none"`},
		{"bad side", entry{T: kindHint, Side: "blue"}, `hint: side "blue": want "white" or "black"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append(bytes.Clone(good), rec(tc.e)...)
			dir, path := stateWith(t, gameID, data)
			_, err := Open(dir, testOpts())
			want := fmt.Sprintf("game: journal %s: record 2 at offset %d: %s", path, len(good), tc.want)
			if err == nil || err.Error() != want {
				t.Errorf("Open:\n got %v\nwant %s", err, want)
			}
		})
	}
}
