package firstcontact

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestStartPositionString(t *testing.T) {
	p := StartPosition()
	if got := p.String(); got != StartString {
		t.Errorf("start position written as %q, want %q", got, StartString)
	}
	if got := System.Start().String(); got != StartString {
		t.Errorf("System.Start() written as %q", got)
	}
}

func TestParseAcceptsAnyOrder(t *testing.T) {
	const canon = "QL3u:-,QL3d:-,KL1u:-,KL6d:- Kc1W,Pb3W,pc4W,na4N,kb8B,Pa2QL3u,pz3QL3d b - - - 3 12 QRBBNPP/qrrbbn KL1u"
	p := rulestest.MustParse(t, Parse, canon)
	if got := p.String(); got != canon {
		t.Fatalf("canonical string written as %q", got)
	}
	rulestest.CheckAnyOrder(t, System, canon, []int{0, 1}, func(f []string, rng *rand.Rand) {
		w, b, _ := strings.Cut(f[8], "/")
		ws, bs := []byte(w), []byte(b)
		rng.Shuffle(len(ws), func(a, b int) { ws[a], ws[b] = ws[b], ws[a] })
		rng.Shuffle(len(bs), func(a, b int) { bs[a], bs[b] = bs[b], bs[a] })
		f[8] = string(ws) + "/" + string(bs)
	})
	// Platform cells sort after W, N, B, in position order QL1u, QL1d, ...
	q := rulestest.MustParse(t, Parse, "QL1d:-,QL1u:-,KL6d:-,QL2u:- Pe9KL6d,Pz0QL1d,Pa1QL1u,Kc1W,kb8B,pz4QL2u w - - - 0 9 -/- -")
	if got, want := q.String(), "QL1u:-,QL1d:-,QL2u:-,KL6d:- Kc1W,kb8B,Pa1QL1u,Pz0QL1d,pz4QL2u,Pe9KL6d w - - - 0 9 -/- -"; got != want {
		t.Errorf("order: %s, want %s", got, want)
	}
}

func TestParseRefuses(t *testing.T) {
	const pl = "QL3u:-,KL1u:-,KL2u:-,KL6u:- "
	for _, tc := range []struct {
		name, pos, reason string
	}{
		{"field count", pl + "Kd1W,kd8B w - - - 0 10 -/-", "9 fields"},
		{"st3d's eight fields", "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6 w - - - 0 1", "8 fields"},
		{"platform with an owner", "QL3u:w,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -", "want POSITION:-"},
		{"a pin without orientation", "QL3:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -", "want POSITION:-"},
		{"two platforms at one position", "QL3u:-,QL3u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -", "two platforms at QL3u"},
		{"five platforms", "QL3u:-,QL3d:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -", "5 platforms"},
		{"square without its platform", pl + "Kd1W,kd8B,Pa2QL3d w - - - 0 10 -/- -", "a2QL3d does not exist without a platform at QL3d"},
		{"no such square", pl + "Kd1W,kd8B,Pb0W w - - - 0 10 -/- -", "not a square"},
		{"st3d square name", pl + "Kd1W,kd8B,Pa2QL3 w - - - 0 10 -/- -", "not a square"},
		{"two pieces on one square", pl + "Kd1W,kd8B,Pb2W,Nb2W w - - - 0 10 -/- -", "two pieces on b2W"},
		{"two white kings", pl + "Kd1W,Kc1W,kd8B w - - - 0 10 -/- -", "more than one white king"},
		{"bad piece letter", pl + "Kd1W,kd8B,Xb2W w - - - 0 10 -/- -", "FEN letter"},
		{"bad side", pl + "Kd1W,kd8B x - - - 0 10 -/- -", "side to move"},
		{"castling", pl + "Kd1W,kd8B w KQkq - - 0 10 -/- -", "castling field"},
		{"en passant", pl + "Kd1W,kd8B w - b3W - 0 10 -/- -", "en-passant field"},
		{"double step", pl + "Kd1W,kd8B w - - b2W 0 10 -/- -", "double-step field"},
		{"bad halfmove", pl + "Kd1W,kd8B w - - - -1 10 -/- -", "halfmove clock"},
		{"bad fullmove", pl + "Kd1W,kd8B w - - - 0 0 -/- -", "fullmove number"},
		{"reserves without a slash", pl + "Kd1W,kd8B w - - - 0 10 QR -", "want WHITE/BLACK"},
		{"empty reserve half", pl + "Kd1W,kd8B w - - - 0 10 /- -", "empty half is written -"},
		{"black letter in White's half", pl + "Kd1W,kd8B w - - - 0 10 q/- -", "not a white piece letter"},
		{"king in reserve", pl + "Kd1W,kd8B w - - - 0 10 K/- -", "not a white piece letter"},
		{"too many queens", pl + "Kd1W,Qa1W,kd8B w - - - 0 10 Q/- -", "white has 2 Q on the set and in reserve"},
		{"nine pawns", pl + "Kd1W,kd8B w - - - 0 10 -/ppppppppp -", "black has 9 P"},
		{"ban without a platform", pl + "Kd1W,kd8B w - - - 0 10 -/- QL5u", "no platform stands there"},
		{"ban not a position", pl + "Kd1W,kd8B w - - - 0 10 -/- QL5", "move ban"},
		{"side not to move in check", pl + "Kd1W,Rb5B,kb8B w - - - 0 10 -/- -", "side not to move is in check"},
		{"pieces before the platforms", "QL3u:- Kd1W - - - 0 2 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", "fields"},
		{"a king before the platforms", "QL3u:- Kd1W b - - - 0 2 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", "pieces on the set while 1 of the 4 platforms"},
		{"wrong side while placing", "QL3u:- - w - - - 0 2 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", "white to move in the placement phase, where it is black's turn"},
		{"black king first", pl + "kd8B w - - - 0 3 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", "pieces on the set before White's king"},
		{"black to place white's king", pl + "- b - - - 0 3 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", "where it is white's turn"},
		{"introduction before the kings", pl + "Kd1W,Na1W b - - - 0 3 QRRBBNPPPPPPPP/qrrbbnnpppppppp -", "before Black's king"},
		{"reserves not full while placing", "- - w - - - 0 1 QRRBBNNPPPPPPP/qrrbbnnpppppppp -", "reserves not full"},
		{"ban while placing", "QL3u:-,QL1u:- - w - - - 0 2 QRRBBNNPPPPPPPP/qrrbbnnpppppppp QL3u", "move ban in the placement phase"},
	} {
		_, err := Parse(tc.pos)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: Parse(%q) err = %v, want %q", tc.name, tc.pos, err, tc.reason)
		}
	}
	// The side to move may be in check: the game is over, but the position
	// can be written and read (it is what a winning move leaves).
	rulestest.MustParse(t, Parse, pl+"Kd1W,Rb5B,kb8B b - - - 0 10 -/- -")
}

func FuzzParse(f *testing.F) {
	f.Add(StartString)
	for _, tc := range perftTable {
		f.Add(tc.pos)
	}
	f.Add("QL3u:-,QL3d:-,KL1u:-,KL6d:- Kc1W,Pb3W,pc4W,na4N,kb8B,Pa2QL3u,pz3QL3d b - - - 3 12 QRBBNPP/qrrbbn KL1u")
	f.Fuzz(func(t *testing.T, s string) {
		for _, up := range []bool{false, true} {
			p, err := parse(s, up)
			if err != nil {
				continue
			}
			out := p.String()
			q, err := parse(out, up)
			if err != nil {
				t.Fatalf("Parse(%q) ok but its output %q is refused: %v", s, out, err)
			}
			if q.String() != out || q != p {
				t.Fatalf("round trip changed the position: %q -> %q", out, q.String())
			}
		}
	})
}
