package game

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/st3d"
)

// replay reads a record as `tridboard replay` does (cmd/tridboard/rules_cmds.go).
func replay(t *testing.T, text string) (*record.Record, *rules.Game) {
	t.Helper()
	rec, err := record.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sys := st3d.System
	if v := rec.Tag("Variant"); v != sys.Name() {
		t.Fatalf("Variant = %q", v)
	}
	pos := sys.Start()
	if fen := rec.Tag("Position"); fen != "" {
		if pos, err = sys.ParsePosition(fen); err != nil {
			t.Fatal(err)
		}
	}
	g := rules.NewGame(pos)
	for _, tok := range rec.Moves {
		if _, _, err := g.PlayNotation(tok); err != nil {
			t.Fatalf("replay %s: %v", tok, err)
		}
	}
	return rec, g
}

func TestExportRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, start string
		moves       []string
		end         func(*Session) error
		result      string
	}{
		{"captures, castling, en passant, board move, promotion", rich, richGame, nil, "*"},
		{"from the start, resigned", "", []string{"Nc3W", "Nb6B", "b2W-b4N"}, func(s *Session) error { return s.Resign(rules.Black) }, "1-0"},
		{"checkmate", mateInOne, []string{"Rb5N"}, nil, "1-0"},
		{"black to move first, draw agreed", richBlack, richGame[1:], func(s *Session) error {
			if err := s.OfferDraw(rules.White); err != nil {
				return err
			}
			return s.AcceptDraw(rules.Black)
		}, "1/2-1/2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newGame(t, tc.start)
			playAll(t, s, tc.moves...)
			if tc.end != nil {
				if err := tc.end(s); err != nil {
					t.Fatal(err)
				}
			}
			var b bytes.Buffer
			if err := s.Export(&b); err != nil {
				t.Fatal(err)
			}
			rec, g := replay(t, b.String())
			if got := g.Position().String(); got != s.Position().String() {
				t.Errorf("replayed position:\n got %s\nwant %s\nrecord:\n%s", got, s.Position(), b.String())
			}
			if got, want := g.Long(), longs(s.Moves()); !reflect.DeepEqual(got, want) {
				t.Errorf("replayed moves %v, want %v", got, want)
			}
			if rec.Result != tc.result || rec.Tag("Result") != tc.result {
				t.Errorf("result %q, tag %q; want %q", rec.Result, rec.Tag("Result"), tc.result)
			}
			want := ""
			if tc.start != "" {
				want = s.Start().String()
			}
			if got := rec.Tag("Position"); got != want {
				t.Errorf("Position tag %q, want %q", got, want)
			}
		})
	}
}

// richBlack is rich after b2W-b4N.
const richBlack = "QL1:w,QL6:b,KL1:w,KL6:b Nd3W,Pb4N,pc4N,nc6N,Pb7B,Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,kd9KL6,re9KL6 b K b4N - 0 10"

// TestRichGame: richGame has what its comment says.
func TestRichGame(t *testing.T) {
	s, _ := newGame(t, rich)
	var sans []string
	for _, m := range playAll(t, s, richGame...) {
		sans = append(sans, m.SAN)
	}
	want := []string{"b4N", "cNxb3N e.p.", "0-0", "Kd8KL6", "b8BQ+", "Kd9KL6", "QL3", "Nd4N", "Qxb3N"}
	if !reflect.DeepEqual(sans, want) {
		t.Errorf("SANs = %q, want %q", sans, want)
	}
}

// TestExportText: the record, exactly.
func TestExportText(t *testing.T) {
	s, _ := newGame(t, "")
	playAll(t, s, "Nc3W", "Nb6B", "b2W-b4N")
	if err := s.Resign(rules.Black); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.Export(&b); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Test"]
[Site "?"]
[Date "2025.01.02"]
[Round "?"]
[White "Kirk"]
[Black "Spock"]
[Result "1-0"]
[Variant "st3d"]
[Termination "normal"]

1. Nc3W Nb6B 2. b4N 1-0
`
	if b.String() != want {
		t.Errorf("Export:\n%s\nwant:\n%s", b.String(), want)
	}

	// From a position with Black to move: a Position tag and "10...".
	s2, _ := newGame(t, richBlack)
	playAll(t, s2, richGame[1:3]...)
	b.Reset()
	if err := s2.Export(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "[Variant \"st3d\"]\n[Position \""+richBlack+"\"]\n\n") ||
		!strings.HasSuffix(b.String(), "\n10... cNxb3N e.p. 11. 0-0 *\n") {
		t.Errorf("Export:\n%s", b.String())
	}
}

// The players' titles, ratings and FIDE ids go into the record after the
// seven-tag roster, in PGN's names, only when known (issue 25); an event's
// board after the Variant.
func TestExportPlayers(t *testing.T) {
	r := RecordOf{Tags: Tags{White: "Kirk", Black: "Spock", WhiteTitle: "GM", WhiteElo: "2712", BlackElo: "2650", BlackFideID: "4100018",
		Board: "4"}, System: st3d.System, Start: st3d.Start(), Result: "*"}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "[White \"Kirk\"]\n[Black \"Spock\"]\n[Result \"*\"]\n[WhiteTitle \"GM\"]\n[WhiteElo \"2712\"]\n[BlackElo \"2650\"]\n[BlackFideId \"4100018\"]\n[Variant \"st3d\"]\n[Board \"4\"]\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("record:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
}
