package tournament

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Every header line a rating officer needs and every line a pairing engine
// reads goes out as TRF-2026 and comes back: city, federation, dates,
// arbiters, time control, round dates, rounds (142 and XXR), the initial
// colour (152 and XXC), acceleration (250), byes asked for the next round
// (its blocks) and later ones (240), titles in TRF-2026's letters.
func TestTRF2026HeaderRoundTrip(t *testing.T) {
	ps := []Player{{Name: "Spock", Rating: 2350, Title: "IM", Federation: "VUL", Sex: "m", Birth: "2230/01/06", FideID: "4100026"},
		{Name: "Uhura, Nyota", Rating: 2210, Title: "WGM", Sex: "w"}, {Name: "Sulu", Rating: 1980, Title: "CM"},
		{Name: "Chekov", Rating: 1900}, {Name: "Rand", Rating: 1700}}
	o := Opts{Name: "Pragyan open", System: Swiss, Rounds: 5, InitialColour: Black, ByNumber: true,
		Accel: []Accel{{Half: 2, FromRound: 1, ToRound: 2, First: 1, Last: 2}},
		Event: EventInfo{City: "San Francisco", Federation: "UFP", Start: "2266/09/08", End: "2266/09/10",
			Arbiter: "Pike, Christopher", Deputies: []string{"Number One", "Boyce, Phil"}, TimeControl: "5400+30",
			RoundDates: []string{"66/09/08", "66/09/08", "66/09/09", "66/09/09", "66/09/10"}}}
	tr, err := New(o, ps)
	if err != nil {
		t.Fatal(err)
	}
	tr.Players[3].Byes = map[int]Result{2: HalfBye, 4: ZeroBye}
	tr.Players[4].Byes = map[int]Result{4: ZeroBye}
	if _, err := tr.NextRound(); err != nil {
		t.Fatal(err)
	}
	for _, g := range tr.Rounds[0].Games {
		if !g.IsBye() {
			_ = tr.SetResult(1, g.Board, WhiteWins, "")
		}
	}
	var b bytes.Buffer
	if err := tr.WriteTRF(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"012 Pragyan open\n", "022 San Francisco\n", "032 UFP\n", "042 2266/09/08\n", "052 2266/09/10\n",
		"102 Pike, Christopher\n", "112 Number One\n", "112 Boyce, Phil\n", "122 5400+30\n", "142 5\n", "152 B\n",
		"XXR 5\n", "XXC black1\n", "250       1.0 001 002 0001 0002\n", "240 Z 004    4    5\n",
		"001    1 m IM Spock", "001    2 wWGM Uhura, Nyota", "001    3   CM Sulu"} {
		if !strings.Contains(text, want) {
			t.Errorf("TRF lacks %q:\n%s", want, text)
		}
	}
	var dates, chekov string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "132") {
			dates = l
		}
		if strings.Contains(l, "Chekov") {
			chekov = l
		}
	}
	if len(dates) < 99 || dates[91:99] != "66/09/08" || dates[101:109] != "66/09/08" {
		t.Errorf("round dates not at columns 92-99, 102-109:\n%s", dates)
	}
	if !strings.HasSuffix(chekov, "  0000 - H") || len(chekov) != 109 {
		t.Errorf("Chekov's half-point bye of round 2 not in round 2's block (columns 102-109):\n%q", chekov)
	}
	back, err := ReadTRF(strings.NewReader(text), "open.trf")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !reflect.DeepEqual(back.Opts, tr.Opts) {
		t.Errorf("opts came back\n%+v\nwant\n%+v", back.Opts, tr.Opts)
	}
	for i := range ps {
		if !reflect.DeepEqual(back.Players[i], tr.Players[i]) {
			t.Errorf("player %d came back %+v, want %+v", i+1, back.Players[i], tr.Players[i])
		}
	}
	if len(back.Rounds) != 1 {
		t.Fatalf("%d rounds came back, want 1 (the next round's byes are requests)", len(back.Rounds))
	}
	var again bytes.Buffer
	_ = back.WriteTRF(&again)
	if again.String() != text {
		t.Errorf("written twice, the TRF differs:\n%s\n%s", text, again.String())
	}
}

// A file fetched while round 2 is played (some results in, some not)
// reads: round 2 is paired with the results there are.
func TestTRFMidRound(t *testing.T) {
	tr, _ := New(Opts{Name: "mid", System: Swiss, Rounds: 3, ByNumber: true}, names("A", "B", "C", "D"))
	play(t, tr, []Result{WhiteWins, Draw})
	rd, _ := tr.NextRound()
	_ = tr.SetResult(2, rd.Games[0].Board, BlackWins, "")
	var b bytes.Buffer
	_ = tr.WriteTRF(&b)
	back, err := ReadTRF(&b, "mid.trf")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Rounds) != 2 || back.Rounds[1].Over() || back.Rounds[1].Games[0].Result != BlackWins {
		t.Errorf("mid-round file read as %+v", back.Rounds)
	}
	if _, err := back.NextRound(); !errors.Is(err, ErrRoundNotOver) {
		t.Errorf("pairing round 3 from a file mid-round 2: %v", err)
	}
}

// Hostile or broken files are refused with the line and column.
func TestReadTRFHostile(t *testing.T) {
	p := func(no, name, rounds string) string {
		l := "001 " + pad(no, 4, true) + "      " + pad(name, 33, false) + " 2000"
		l += strings.Repeat(" ", 89-len(l))
		return l + rounds
	}
	ok2 := p("1", "A", "") + "\n" + p("2", "B", "")
	for _, tc := range []struct{ trf, want string }{
		{"XXR 0\n" + ok2, "h.trf:1:5: XXR \"0\""},
		{"142 x\n" + ok2, "h.trf:1:5: 142"},
		{"152 G\n" + ok2, "h.trf:1:5: initial colour"},
		{"XXC red1\n" + ok2, "h.trf:1:5: XXC"},
		{ok2 + "\n250 1.0 001 999 0001 0002", "h.trf:3:5: acceleration"},
		{ok2 + "\n240 Q 002 0001", "h.trf:3:5: a bye line"},
		{ok2 + "\n240 H 002 0009", "h.trf:3:11: bye for player 9"},
		{ok2 + "\nXXA 0001 x", "h.trf:3:10: XXA round 1"},
		{p("1", "A", "  0002 w 1") + "\n" + p("2", "B", "  0001 w 0"), "h.trf:1:92: A, round 1: has w against 2"},
		{p("1", "A", "  0009 w 1") + "\n" + p("2", "B", ""), "h.trf:1:92: A, round 1: no player 9"},
		{p("1", "A", "  0001 w 1") + "\n" + p("2", "B", ""), "paired against themselves"},
		{p("1", "A", "  0002 w Q") + "\n" + p("2", "B", "  0001 b 0"), "h.trf:1:99: round 1: result \"Q\""},
		{p("1", "A", "") + "\n" + p("x", "B", ""), "h.trf:2:5: start rank \"x\""},
		{p("1", "A", "") + "\n" + strings.Replace(p("2", "B", ""), "2000", "20x0", 1), "h.trf:2:49: rating"},
		{p("1", "A", "") + "\n" + p("1", "B", ""), "h.trf:2:5: start rank 1 twice (first on line 1)"},
		{p("1", "A", strings.Repeat("  0000 - Z", 100)) + "\n" + p("2", "B", ""), "more than 99 rounds"},
	} {
		_, err := ReadTRF(strings.NewReader(tc.trf), "h.trf")
		var te *TRFError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &te) {
			t.Errorf("%q:\n %v\n want %q", tc.trf, err, tc.want)
		}
	}
}
