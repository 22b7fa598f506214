package tournament

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// A Swiss of five with a bye, a forfeit and a round paired but not played
// goes out as TRF-16 and comes back the same.
func TestTRFRoundTrip(t *testing.T) {
	ps := []Player{{Name: "Kirk, James", Rating: 2210, Title: "FM", FideID: "4100018"},
		{Name: "Spock", Rating: 2350, Title: "IM"}, {Name: "Uhura", Rating: 1980},
		{Name: "Sulu", Rating: 1800}, {Name: "Chekov"}}
	tr, _ := New(Opts{Name: "Pragyan lightning", System: Swiss, Rounds: 3}, ps)
	play(t, tr, []Result{WhiteWins, Draw}, []Result{BlackForfeit, WhiteWins})
	if _, err := tr.NextRound(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tr.WriteTRF(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	// Columns as TRF-16 counts them (from 1): name at 15, rating at 49,
	// round 1's opponent at 92-95, colour 97, result 99.
	var kirk string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Kirk") {
			kirk = l
		}
	}
	if kirk[14:26] != "Kirk, James " || kirk[48:52] != "2210" || kirk[10:13] != " FM" || kirk[57:68] != "    4100018" {
		t.Errorf("Kirk's line out of TRF's columns:\n%s", kirk)
	}
	if len(kirk) < 99 || kirk[96] != 'w' && kirk[96] != 'b' {
		t.Errorf("Kirk's round 1 block not at columns 92-99:\n%s", kirk)
	}
	back, err := ReadTRF(strings.NewReader(text), "event.trf")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if back.Opts.Name != "Pragyan lightning" || back.Opts.Rounds != 3 || back.Opts.System != Swiss {
		t.Errorf("opts %+v", back.Opts)
	}
	// The file's start ranks are the pairing numbers (rating order).
	tpn := tr.PairingNumbers()
	if tpn[2] != 1 || tpn[1] != 2 {
		t.Fatalf("pairing numbers %v: want Spock (2350) first, Kirk second", tpn)
	}
	for i := range ps {
		a, b := tr.Players[i], back.Players[tpn[i+1]-1]
		if a.Name != b.Name || a.Rating != b.Rating || a.Title != b.Title || a.FideID != b.FideID {
			t.Errorf("player %d: %+v came back as %+v", i+1, a, b)
		}
	}
	for r := range tr.Rounds {
		a, b := tr.Rounds[r].Games, back.Rounds[r].Games
		for i := range a {
			a[i].Reason = ""
			a[i].White = tpn[a[i].White]
			a[i].Black = tpn[a[i].Black]
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("round %d:\n wrote %+v\n read  %+v", r+1, a, b)
		}
	}
	if back.Rounds[2].Started || !back.Rounds[1].Started {
		t.Error("a round paired but not played came back started, or a played one not")
	}
	var again bytes.Buffer
	_ = back.WriteTRF(&again)
	if again.String() != text {
		t.Errorf("written twice, the TRF differs:\n%s\n%s", text, again.String())
	}
}

func TestReadTRFErrors(t *testing.T) {
	line := func(no, name, rounds string) string {
		l := "001 " + pad(no, 4, true) + "      " + pad(name, 33, false) + " 2000"
		l += strings.Repeat(" ", 89-len(l))
		return l + rounds
	}
	for _, tc := range []struct{ trf, want string }{
		{"001 x", "is 5 characters"},
		{line("1", "A", "     2 w 1") + "\n" + line("2", "B", "     1 w 0"), "whose line does not say so"},
		{line("1", "A", "     2 w 1") + "\n" + line("2", "B", "     1 b 1"), "do not agree"},
		{line("1", "A", "  0000 - 1") + "\n" + line("2", "B", ""), "no opponent and result"},
		{line("1", "A", "     2 x 1"), "x.trf:1:97: round 1: colour \"x\""},
		{line("1", "A", "") + "\n" + line("1", "B", ""), "start rank 1 twice"},
		{line("2", "A", "") + "\n" + line("3", "B", ""), "no player with start rank 1"},
	} {
		_, err := ReadTRF(strings.NewReader(tc.trf), "x.trf")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.trf, err, tc.want)
		}
	}
}

func pad(s string, n int, right bool) string {
	if right {
		return strings.Repeat(" ", n-len(s)) + s
	}
	return s + strings.Repeat(" ", n-len(s))
}

func TestReadPlayers(t *testing.T) {
	// A name may hold commas, as TRF writes names ("Last,First"): the
	// name runs to the first field that is a number or empty.
	ps, err := ReadPlayers(strings.NewReader("# the hall\nKirk, James T., 2210, fm, 4100018\n\nSpock,2350\nUhura\nSulu,,CM\n"), "p.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Player{{No: 1, Name: "Kirk, James T.", Rating: 2210, Title: "FM", FideID: "4100018"},
		{No: 2, Name: "Spock", Rating: 2350}, {No: 3, Name: "Uhura"}, {No: 4, Name: "Sulu", Title: "CM"}}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("got %+v", ps)
	}
	for _, tc := range []struct{ in, want string }{
		{"A\n", "1 players"},
		{"A\nB,2000,XM,1,2\n", "p.txt:2: \"B,2000,XM,1,2\": want Name[,rating[,title[,fide-id]]]"},
		{"A\nB,2000,XM\n", "title \"XM\""},
		{"A\nB,2000,,12a\n", "FIDE id \"12a\""},
		{"A\na\n", "entered twice"},
		{"A\n" + strings.Repeat("x", 34) + "\n", "longer than 33"},
	} {
		_, err := ReadPlayers(strings.NewReader(tc.in), "p.txt")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
