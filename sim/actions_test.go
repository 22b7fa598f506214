package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Action
		ok   bool
		err  string
	}{
		{"lift b2W", Action{Op: OpLift, Cell: "b2W"}, true, ""},
		{"  place QL3   # the board", Action{Op: OpPlace, Cell: "QL3"}, true, ""},
		{"place QL1 turned", Action{Op: OpPlace, Cell: "QL1", Turned: true}, true, ""},
		{"lift 2e4", Action{Op: OpLift, Cell: "2e4"}, true, ""},
		{"place a2QL3u", Action{Op: OpPlace, Cell: "a2QL3u"}, true, ""},
		{"place QL3d", Action{Op: OpPlace, Cell: "QL3d"}, true, ""},
		{"bounce 3h8", Action{Op: OpBounce, Cell: "3h8"}, true, ""},
		{"wait 200", Action{Op: OpWait, Wait: 200 * time.Millisecond}, true, ""},
		{"setup", Action{Op: OpSetup}, true, ""},
		{"setup K1e1,k3e8 w - - - 0 1", Action{Op: OpSetup, Position: "K1e1,k3e8 w - - - 0 1"}, true, ""},
		{"# nothing", Action{}, false, ""},
		{"", Action{}, false, ""},
		{"lift", Action{}, false, `sim: "lift": lift takes one cell`},
		{"place QL1 upside", Action{}, false, `sim: "place QL1 upside": want place CELL or place PIN turned`},
		{"lift b2W turned", Action{}, false, `sim: "lift b2W turned": lift takes one cell`},
		{"lift 4e4", Action{}, false, `sim: "lift 4e4": "4e4" is neither a square nor a pin of any set (b2W, QL3, 2e4, a2QL3u, QL3d)`},
		{"wait soon", Action{}, false, `sim: "wait soon": wait takes milliseconds >= 0`},
		{"wait 1 2", Action{}, false, `sim: "wait 1 2": wait takes one argument, milliseconds`},
		{"turn QL1", Action{}, false, `sim: "turn QL1": unknown action "turn" (lift SQUARE | place SQUARE | lift PIN | place PIN [turned] | wait MS | bounce CELL | setup [POSITION] | press BUTTON | release BUTTON | tap BUTTON [MS])`},
		// The buttons (issue 29).
		{"press clock_white", Action{Op: OpPress, Button: "clock_white"}, true, ""},
		{"release clock_white # let go", Action{Op: OpRelease, Button: "clock_white"}, true, ""},
		{"tap knight", Action{Op: OpTap, Button: "knight", Wait: 80 * time.Millisecond}, true, ""},
		{"tap take_back 250", Action{Op: OpTap, Button: "take_back", Wait: 250 * time.Millisecond}, true, ""},
		{"press", Action{}, false, `sim: "press": press takes one button (clock_white, queen, new_game, ...)`},
		{"release queen rook", Action{}, false, `sim: "release queen rook": release takes one button (clock_white, queen, new_game, ...)`},
		{"press button:queen", Action{}, false, `sim: "press button:queen": name the button without "button:": queen`},
		{"tap", Action{}, false, `sim: "tap": want tap BUTTON or tap BUTTON MS`},
		{"tap hint 80 80", Action{}, false, `sim: "tap hint 80 80": want tap BUTTON or tap BUTTON MS`},
		{"tap hint 0", Action{}, false, `sim: "tap hint 0": tap holds its button for milliseconds > 0`},
		{"tap hint soon", Action{}, false, `sim: "tap hint soon": tap holds its button for milliseconds > 0`},
		{"tap button:hint", Action{}, false, `sim: "tap button:hint": name the button without "button:": hint`},
	} {
		a, ok, err := ParseAction(tc.line)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if a != tc.want || ok != tc.ok || got != tc.err {
			t.Errorf("ParseAction(%q) = %+v, %v, %q; want %+v, %v, %q", tc.line, a, ok, got, tc.want, tc.ok, tc.err)
		}
		if ok {
			// String writes the line back.
			if b, _, err := ParseAction(a.String()); err != nil || b != a {
				t.Errorf("%q: String %q reads back as %+v, %v", tc.line, a.String(), b, err)
			}
		}
	}
}

// doAll parses and does the lines of a script on s, stopping at the first
// error, which it returns.
func doAll(s *Set, script string) error {
	for _, line := range strings.Split(script, "\n") {
		a, ok, err := ParseAction(line)
		if err != nil {
			return err
		}
		if ok {
			if err := s.Do(a); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestDoPerSystem(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    *Set
		script string
		closed string // sorted names
		err    string
	}{
		{"st3d turn", NewSet(NewTimeSource(time.Time{})), "setup QL1:w,QL6:b,KL1:w,KL6:b Ka1W,Pz0QL1,kd8B w - - - 0 1\nlift QL1\nplace QL1 turned",
			"KL1 KL6 QL1 QL6 a1QL1 a1W d8B", ""},
		{"st3d spare board", NewSet(NewTimeSource(time.Time{})), "setup QL1:w,KL1:w,KL6:b Kb1W,Pa7B,kd8B w - - - 0 1\nlift a7B\nplace QL6",
			"KL1 KL6 QL1 QL6 b1W d8B", ""},
		{"st3d board with its piece", NewSet(NewTimeSource(time.Time{})), "setup QL1:w,QL6:b,KL1:w,KL6:b Ka1W,Pa1QL1,kd8B w - - - 0 1\nlift QL1\nplace QL2",
			"KL1 KL6 QL2 QL6 a1W a5QL2 d8B", ""},
		{"millennium", NewSetFor(millennium.System, NewTimeSource(time.Time{})), "setup K1e1,k3e8 w - - - 0 1\nlift 1e1\nplace 2e2\nplace 3a1",
			"2e2 3a1 3e8", ""},
		{"first contact platforms", NewSetFor(firstcontact.System, NewTimeSource(time.Time{})),
			"place QL3u\nplace QL3d\nplace a3QL3u\nplace z2QL3d\nlift QL3u\nplace QL5u\nlift QL3d\nplace KL3d",
			"KL3d QL5u a5QL5u d2KL3d", ""},
		{"first contact up only", NewSetFor(firstcontact.UpOnly, NewTimeSource(time.Time{})), "place QL3u\nplace QL3d", "QL3u",
			"sim: place QL3d: no such cell on the first-contact-up set"},
		{"turn a square", NewSet(NewTimeSource(time.Time{})), "setup\nplace b4W turned", "", "sim: place b4W turned: only a board placed on a pin can be turned"},
		{"square of a missing board", NewSetFor(firstcontact.System, NewTimeSource(time.Time{})), "place a3QL3u", "", "sim: place a3QL3u: no board on QL3u"},
		{"second board in the air", NewSet(NewTimeSource(time.Time{})), "setup\nlift QL1\nlift KL1", "",
			"sim: lift board KL1: the board of QL1 is still in the air"},
		{"spare on a taken pin", NewSet(NewTimeSource(time.Time{})), "setup\nplace QL1", "", "sim: place spare board QL1: pin taken"},
		{"millennium cell on st3d", NewSet(NewTimeSource(time.Time{})), "lift 2e4", "", "sim: lift 2e4: no such cell on the st3d set"},
		{"bad setup", NewSetFor(millennium.System, NewTimeSource(time.Time{})), "setup K9z9 w - - - 0 1", "", "sim: setup: "},
	} {
		err := doAll(tc.set, tc.script)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tc.err == "" && got != "" || tc.err != "" && !strings.HasPrefix(got, tc.err) {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.err)
			continue
		}
		if tc.closed != "" {
			if c := strings.Join(closedNames(tc.set), " "); c != tc.closed {
				t.Errorf("%s: closed %s, want %s", tc.name, c, tc.closed)
			}
		}
	}
}

// TestSetCarriers: which squares ride on which socket comes from the cell
// names, in cell-list order, for every system; Millennium has none.
func TestSetCarriers(t *testing.T) {
	for _, tc := range []struct {
		set     *Set
		sockets int
		socket  string
		squares string
	}{
		{NewSet(nil), 12, "QL3", "z2QL3 a2QL3 z3QL3 a3QL3"},
		{NewSet(nil), 12, "KL6", "d8KL6 e8KL6 d9KL6 e9KL6"},
		{NewSetFor(firstcontact.System, nil), 24, "QL3d", "z2QL3d a2QL3d z3QL3d a3QL3d"},
		{NewSetFor(firstcontact.UpOnly, nil), 12, "KL1u", "d0KL1u e0KL1u d1KL1u e1KL1u"},
		{NewSetFor(millennium.System, nil), 0, "", ""},
	} {
		n := 0
		for _, name := range tc.set.Cells() {
			if tc.set.IsSocket(name) {
				n++
			}
		}
		if n != tc.sockets {
			t.Errorf("%s: %d sockets, want %d", tc.set.System().Name(), n, tc.sockets)
		}
		if tc.socket == "" {
			continue
		}
		c, _ := tc.set.Cell(tc.socket)
		var got []string
		for _, sq := range tc.set.carried[c] {
			got = append(got, tc.set.Cells()[sq])
		}
		if strings.Join(got, " ") != tc.squares {
			t.Errorf("%s %s carries %v, want %s", tc.set.System().Name(), tc.socket, got, tc.squares)
		}
	}
	// The st3d set still knows its start as StartCells.
	s := NewSet(nil)
	s.Start()
	if got, want := s.Closed(), st3d.System.Start().Occupancy(); got != want || got.Len() != len(StartCells) {
		t.Fatalf("st3d start %v", got.Names(s.Cells()))
	}
}

// The set's buttons by name: press and release close and open the cell,
// a tap is a press, a wait and a release (Steps), and a name the set does
// not have is refused with the list of those it has (issue 29).
func TestDoButtons(t *testing.T) {
	s := NewSetFor(firstcontact.System, NewTimeSource(time.Time{}), "button:clock_white", "button:knight", "button:pawn")
	pressed := func() string {
		var out []string
		for _, c := range s.Closed().Cells(nil) {
			out = append(out, s.Cells()[c])
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		line, closed, err string
	}{
		{"press knight", "button:knight", ""},
		{"press clock_white", "button:clock_white button:knight", ""},
		{"release knight", "button:clock_white", ""},
		{"release clock_white", "", ""},
		{"press castle", "", `sim: press castle: the first-contact set has no button "castle" (its buttons: clock_white, knight, pawn)`},
		{"tap queen 100", "", `sim: tap queen 100: the first-contact set has no button "queen" (its buttons: clock_white, knight, pawn)`},
		{"tap pawn", "", "sim: tap pawn: a tap is a press, a wait and a release: run its Steps"},
	} {
		a, _, err := ParseAction(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := s.Do(a); err != nil {
			got = err.Error()
		}
		if got != tc.err || pressed() != tc.closed {
			t.Errorf("%s: error %q, pressed %q; want %q, %q", tc.line, got, pressed(), tc.err, tc.closed)
		}
	}
	if err := NewSet(nil).Do(Action{Op: OpPress, Button: "hint"}); err == nil || err.Error() != "sim: press hint: the st3d set has no buttons" {
		t.Errorf("a set without buttons: %v", err)
	}
	a, _, _ := ParseAction("tap pawn 120")
	var steps []string
	for _, st := range a.Steps() {
		steps = append(steps, st.String())
	}
	if got := strings.Join(steps, ", "); got != "press pawn, wait 120, release pawn" {
		t.Errorf("steps of a tap: %s", got)
	}
	if st := (Action{Op: OpLift, Cell: "b2W"}).Steps(); len(st) != 1 || st[0].String() != "lift b2W" {
		t.Errorf("steps of a lift: %v", st)
	}
}
