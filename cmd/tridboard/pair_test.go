package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/tournament"
)

// trfPlayer writes a TRF player line: start rank, name, rating, then round
// blocks ("  0005 w 1").
func trfPlayer(no int, name string, rating int, blocks string) string {
	l := fmt.Sprintf("001 %4d      %-33s %4d", no, name, rating)
	l += strings.Repeat(" ", 89-len(l))
	return l + blocks
}

// The engines' interface: -p prints the number of pairs, then White's and
// Black's start ranks a line; the file may be fetched with the next
// round's byes asked for; -p OUT writes a file.
func TestPairCommandPairsNextRound(t *testing.T) {
	trf := strings.Join([]string{"012 Test", "XXR 5",
		trfPlayer(1, "Alpha", 2400, "     5 w 1"),
		trfPlayer(2, "Bravo", 2300, "     6 b 0"),
		trfPlayer(3, "Charlie", 2200, "     7 w 1"),
		trfPlayer(4, "Delta", 2100, "     8 b 1"),
		trfPlayer(5, "Echo", 2000, "     1 b 0"),
		trfPlayer(6, "Foxtrot", 1900, "     2 w 1"),
		trfPlayer(7, "Golf", 1800, "     3 b 0"),
		trfPlayer(8, "Hotel", 1700, "     4 w 0"),
	}, "\n") + "\n"
	in := writeFile(t, "r1.trf", trf)
	code, out, errs := run("pair", "--dutch", in, "-p")
	// 1, 3, 4, 6 on a point: 1-4 meets both preferences, 3 and 6 both
	// want Black (3, higher, has it); on 0: 2-7 and 5-8 come before 2-8
	// and 5-7, which are no better for colours.
	if want := "4\n4 1\n6 3\n2 7\n5 8\n"; code != 0 || out != want {
		t.Errorf("pair -p: %d %q %s, want %q", code, out, errs, want)
	}
	// Delta asks for a half-point bye in round 2 (a block for round 2):
	// seven players. 1-3 (6 floats: all three want Black); 6 meets 5
	// (6-2 met; both get their colours); the remainder 2, 7, 8 pairs 2-8
	// (2-7 would leave both due White: C12 before art. 4's order) and 7,
	// left over, has the pairing-allocated bye.
	trf2 := strings.Replace(trf, trfPlayer(4, "Delta", 2100, "     8 b 1"), trfPlayer(4, "Delta", 2100, "     8 b 1  0000 - H"), 1)
	outFile := filepath.Join(t.TempDir(), "out.txt")
	code, out, errs = run("pair", "--dutch", writeFile(t, "r1h.trf", trf2), "-p", outFile)
	got, _ := os.ReadFile(outFile)
	if code != 0 || out != "" || string(got) != "4\n3 1\n5 6\n2 8\n7 0\n" {
		t.Errorf("pair -p OUT with a requested bye: %d %q %s, file %q", code, out, errs, got)
	}
}

// Exit status 1 when no pairing meets the absolute criteria: in the final
// round 1 and 2 (topscorers) may meet, but 3 and 4 (both due White
// absolutely, not topscorers) may not, and every other pair met.
func TestPairCommandNoLegalPairing(t *testing.T) {
	trf := strings.Join([]string{"XXR 3",
		trfPlayer(1, "A", 2400, "     3 w 1     4 w 1"),
		trfPlayer(2, "B", 2300, "     4 w 1     3 w 1"),
		trfPlayer(3, "C", 2200, "     1 b 0     2 b 0"),
		trfPlayer(4, "D", 2100, "     2 b 0     1 b 0"),
	}, "\n")
	code, out, errs := run("pair", "--dutch", writeFile(t, "none.trf", trf), "-p")
	if code != 1 || out != "" || !strings.Contains(errs, "no legal pairing") {
		t.Errorf("%d %q %q, want exit 1", code, out, errs)
	}
}

// Bad files and requests: exit 3 with the line and column; a file that
// cannot be read: 5.
func TestPairCommandBadInput(t *testing.T) {
	good := writeFile(t, "g.trf", "XXR 2\n"+trfPlayer(1, "A", 2000, "")+"\n"+trfPlayer(2, "B", 1900, ""))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--dutch", writeFile(t, "b.trf", "XXR 2\n"+trfPlayer(1, "A", 2000, "     2 w 1")+"\n"+trfPlayer(2, "B", 1900, "     1 w 0")), "-p"}, 3, "b.trf:2:92: A, round 1"},
		{[]string{"--dutch", writeFile(t, "c.trf", "XXR 2\n"+trfPlayer(1, "A", 2000, "")+"\n"+strings.Replace(trfPlayer(2, "B", 1900, ""), "1900", "19x0", 1)), "-p"}, 3, "c.trf:3:49: rating"},
		{[]string{"--dutch", filepath.Join(t.TempDir(), "missing.trf"), "-p"}, 5, "no such file"},
		{[]string{"--dutch", good}, 3, "give -p"},
		{[]string{"--dutch", good, "-p", "-c"}, 3, "give -p"},
		{[]string{"--burstein", good, "-p"}, 3, "Dutch system only"},
		{[]string{"-p"}, 3, "no tournament file"},
		{[]string{"--dutch", good, "-x"}, 3, `"-x"`},
		{[]string{"--dutch", writeFile(t, "n.trf", trfPlayer(1, "A", 2000, "")+"\n"+trfPlayer(2, "B", 1900, "")), "-p"}, 3, "number of rounds is not given"},
	} {
		code, _, errs := run(append([]string{"pair"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// -c on a whole event paired by the engine finds nothing to say; with one
// round changed by hand, it names that round and what the rules pair.
func TestPairCommandChecksRounds(t *testing.T) {
	ps := make([]tournament.Player, 15)
	for i := range ps {
		ps[i] = tournament.Player{Name: fmt.Sprintf("P%02d", i+1), Rating: 2300 - 25*i}
	}
	tr, err := tournament.New(tournament.Opts{Name: "check", System: tournament.Swiss, Rounds: 5}, ps)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for k := 1; k <= 5; k++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rd.Games {
			if !g.IsBye() {
				_ = tr.SetResult(k, g.Board, []tournament.Result{tournament.WhiteWins, tournament.Draw, tournament.BlackWins}[r.IntN(3)], "")
			}
		}
	}
	var b bytes.Buffer
	if err := tr.WriteTRF(&b); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("pair", "--dutch", writeFile(t, "ok.trf", b.String()), "-c")
	if code != 0 || out != "5 rounds checked: every one is paired as the Dutch rules pair it\n" {
		t.Fatalf("-c on the engine's own event: %d %q %s\n%s", code, out, errs, b.String())
	}
	// Swap colours on round 5's first board, in both players' lines.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "001") && len(l) >= 139 {
			c := []byte(l)
			switch c[136] {
			case 'w':
				c[136] = 'b'
			case 'b':
				c[136] = 'w'
			}
			lines[i] = string(c)
		}
	}
	code, out, _ = run("pair", "--dutch", writeFile(t, "bad.trf", strings.Join(lines, "\n")), "-c")
	if code != 0 || !strings.HasPrefix(out, "round 5: the Dutch rules pair ") || strings.Count(out, "\n") != 1 {
		t.Errorf("-c with round 5's colours swapped: %d %q", code, out)
	}
}

// A whole event, as an arbiter checks it: before each round the event's
// TRF goes to `tridboard pair -p`, whose pairs must be the ones the event
// then pairs (the same code, through the file); along the way a forfeit, a
// half-point bye asked for, a late entry and a withdrawal. At the end -c
// finds every round paired by the rules.
func TestPairCommandFollowsAWholeEvent(t *testing.T) {
	ps := make([]tournament.Player, 13)
	for i := range ps {
		ps[i] = tournament.Player{Name: fmt.Sprintf("Player %02d", i+1), Rating: 1500 + 37*((i*7)%13)}
	}
	tr, err := tournament.New(tournament.Opts{Name: "whole", System: tournament.Swiss, Rounds: 6}, ps)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 3))
	dir := t.TempDir()
	for k := 1; k <= 6; k++ {
		switch k {
		case 2:
			tr.Players[4].Byes = map[int]tournament.Result{2: tournament.HalfBye}
		case 3:
			if _, err := tr.AddPlayer(tournament.Player{Name: "Late", Rating: 1700}); err != nil {
				t.Fatal(err)
			}
		case 4:
			if err := tr.Withdraw(7); err != nil {
				t.Fatal(err)
			}
		}
		var b bytes.Buffer
		if err := tr.WriteTRF(&b); err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(dir, fmt.Sprintf("before-%d.trf", k))
		if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run("pair", "--dutch", in, "-p")
		if code != 0 {
			t.Fatalf("round %d: pair -p: %d %s\n%s", k, code, errs, b.String())
		}
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		// The event's pairs, in the file's numbers (pairing numbers).
		tpn := tr.PairingNumbers()
		var want []string
		for _, g := range rd.Games {
			switch {
			case !g.IsBye():
				want = append(want, fmt.Sprintf("%d %d", tpn[g.White], tpn[g.Black]))
			case g.Result == tournament.Bye:
				want = append(want, fmt.Sprintf("%d 0", tpn[g.White]))
			}
		}
		if w := fmt.Sprintf("%d\n%s\n", len(want), strings.Join(want, "\n")); out != w {
			t.Errorf("round %d: pair -p says\n%s, the event pairs\n%s", k, out, w)
		}
		for _, g := range rd.Games {
			if g.IsBye() {
				continue
			}
			res := []tournament.Result{tournament.WhiteWins, tournament.Draw, tournament.BlackWins}[r.IntN(3)]
			if k == 2 && g.Board == 2 {
				res = tournament.BlackForfeit
			}
			if err := tr.SetResult(k, g.Board, res, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b bytes.Buffer
	_ = tr.WriteTRF(&b)
	code, out, _ := run("pair", "--dutch", writeFile(t, "final.trf", b.String()), "-c")
	if code != 0 || out != "6 rounds checked: every one is paired as the Dutch rules pair it\n" {
		t.Errorf("-c at the end: %d %q\n%s", code, out, b.String())
	}
}
