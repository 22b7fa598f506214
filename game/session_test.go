package game

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
)

func TestNewAndPlay(t *testing.T) {
	s, dir := newGame(t, "")
	if got, want := s.ID(), "20250102-030405-000"; got != want {
		t.Errorf("ID = %q, want %q", got, want)
	}
	if got, want := s.Tags(), (Tags{Event: "Test", Date: "2025.01.02", White: "Kirk", Black: "Spock"}); got != want {
		t.Errorf("Tags = %+v, want %+v", got, want)
	}
	if got, want := readFile(t, dir+"/current"), "20250102-030405-000\n"; string(got) != want {
		t.Errorf("current = %q, want %q", got, want)
	}
	start := st3d.Start()
	m1 := mustMove(t, start, "d1W-c3W")
	p1 := start.Play(m1)
	m2 := mustMove(t, p1, "a8B-b6B")
	p2 := p1.Play(m2)

	got1, err := s.Play(m1)
	if err != nil {
		t.Fatal(err)
	}
	got2, note, err := s.PlayNotation("Nb6B")
	if err != nil || note != "" {
		t.Fatalf("PlayNotation: %q, %v", note, err)
	}
	want := []Move{
		{Seq: 1, Game: s.ID(), Move: "d1W-c3W", SAN: "Nc3W", Position: p1.String(), Time: at(1)},
		{Seq: 2, Game: s.ID(), Move: "a8B-b6B", SAN: "Nb6B", Position: p2.String(), Time: at(2)},
	}
	if !reflect.DeepEqual([]Move{got1, got2}, want) {
		t.Errorf("moves returned:\n got %+v\nwant %+v", []Move{got1, got2}, want)
	}
	if got := s.Moves(); !reflect.DeepEqual(got, want) {
		t.Errorf("Moves:\n got %+v\nwant %+v", got, want)
	}
	if got := s.Position().String(); got != p2.String() {
		t.Errorf("Position = %s, want %s", got, p2)
	}
	if r, why := s.Result(); r != rules.NoResult || why != ReasonNone {
		t.Errorf("Result = %s, %q", r, why)
	}
}

func TestTakeBackSeqNeverRepeats(t *testing.T) {
	s, _ := newGame(t, "")
	playAll(t, s, "Nc3W", "Nb6B", "Nb3W")
	last, err := s.TakeBack()
	if err != nil {
		t.Fatal(err)
	}
	if last.Seq != 3 || last.Move != "a1W-b3W" {
		t.Errorf("TakeBack = seq %d %s, want seq 3 a1W-b3W", last.Seq, last.Move)
	}
	if _, err := s.TakeBack(); err != nil {
		t.Fatal(err)
	}
	mv := playAll(t, s, "Nc6B", "Nb3N")
	if got := seqs(mv); !reflect.DeepEqual(got, []int{4, 5}) {
		t.Errorf("seqs after take-backs = %v, want [4 5]", got)
	}
	if got, want := seqs(s.Moves()), []int{1, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("Moves seqs = %v, want %v", got, want)
	}
	if got, want := longs(s.Moves()), []string{"d1W-c3W", "d8B-c6B", "a1W-b3N"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Moves = %v, want %v", got, want)
	}
	if got, want := seqs(s.Published()), []int{1, 2, 3, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("Published seqs = %v, want %v", got, want)
	}
	if got, want := longs(s.Published()), []string{"d1W-c3W", "a8B-b6B", "a1W-b3W", "d8B-c6B", "a1W-b3N"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Published = %v, want %v", got, want)
	}
}

func TestResign(t *testing.T) {
	for _, tc := range []struct {
		side rules.Color
		want rules.Result
	}{
		{rules.White, rules.BlackWins},
		{rules.Black, rules.WhiteWins},
	} {
		s, _ := newGame(t, "")
		playAll(t, s, "Nc3W")
		if err := s.Resign(tc.side); err != nil {
			t.Fatal(err)
		}
		if r, why := s.Result(); r != tc.want || why != ReasonResignation {
			t.Errorf("%s resigns: Result = %s, %q; want %s, resignation", tc.side, r, why, tc.want)
		}
	}
}

func TestDraws(t *testing.T) {
	t.Run("offer accepted", func(t *testing.T) {
		s, _ := newGame(t, "")
		playAll(t, s, "Nc3W")
		if err := s.OfferDraw(rules.White); err != nil {
			t.Fatal(err)
		}
		if side, ok := s.DrawOffer(); !ok || side != rules.White {
			t.Errorf("DrawOffer = %s, %v; want white, true", side, ok)
		}
		if err := s.AcceptDraw(rules.Black); err != nil {
			t.Fatal(err)
		}
		if r, why := s.Result(); r != rules.Draw || why != ReasonAgreement {
			t.Errorf("Result = %s, %q; want 1/2-1/2, agreement", r, why)
		}
		if _, ok := s.DrawOffer(); ok {
			t.Error("offer still pending after the game ended")
		}
	})
	t.Run("declined", func(t *testing.T) {
		s, _ := newGame(t, "")
		if err := s.OfferDraw(rules.Black); err != nil {
			t.Fatal(err)
		}
		if err := s.DeclineDraw(rules.White); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.DrawOffer(); ok {
			t.Error("offer pending after decline")
		}
	})
	t.Run("a move by the offer's receiver declines it", func(t *testing.T) {
		s, _ := newGame(t, "")
		if err := s.OfferDraw(rules.White); err != nil {
			t.Fatal(err)
		}
		playAll(t, s, "Nc3W") // the offerer's own move: the offer stands
		if side, ok := s.DrawOffer(); !ok || side != rules.White {
			t.Errorf("after White's move: DrawOffer = %s, %v; want white, true", side, ok)
		}
		playAll(t, s, "Nb6B")
		if _, ok := s.DrawOffer(); ok {
			t.Error("offer pending after Black moved")
		}
	})
	t.Run("threefold", func(t *testing.T) {
		s, _ := newGame(t, "")
		playAll(t, s, shuffle[:7]...)
		_, err := s.ClaimDraw(rules.White, ClaimThreefold)
		if want := "game 20250102-030405-000: white: claim a draw: no draw by threefold repetition: the position has stood 2 times, 3 are needed"; err == nil || err.Error() != want {
			t.Errorf("early claim: %v, want %s", err, want)
		}
		playAll(t, s, shuffle[7])
		if _, err := s.ClaimDraw(rules.White, ClaimFiftyMoves); err == nil ||
			!strings.HasSuffix(err.Error(), "no draw by the 50-move rule: the halfmove clock is 8, 100 are needed") {
			t.Errorf("50-move claim: %v", err)
		}
		why, err := s.ClaimDraw(rules.White, ClaimAny)
		if err != nil || why != ReasonThreefold {
			t.Fatalf("ClaimDraw = %q, %v", why, err)
		}
		if r, why := s.Result(); r != rules.Draw || why != ReasonThreefold {
			t.Errorf("Result = %s, %q", r, why)
		}
	})
	t.Run("fifty moves", func(t *testing.T) {
		s, _ := newGame(t, fifty)
		_, err := s.ClaimDraw(rules.Black, ClaimAny)
		if want := "game 20250102-030405-000: black: claim a draw: no draw to claim: the position has stood once, 3 times are needed; the halfmove clock is 99, 100 are needed"; err == nil || err.Error() != want {
			t.Errorf("early claim: %v, want %s", err, want)
		}
		playAll(t, s, "Nc3W")
		why, err := s.ClaimDraw(rules.Black, ClaimFiftyMoves)
		if err != nil || why != ReasonFiftyMoves {
			t.Fatalf("ClaimDraw = %q, %v", why, err)
		}
		if r, why := s.Result(); r != rules.Draw || why != ReasonFiftyMoves {
			t.Errorf("Result = %s, %q", r, why)
		}
	})
}

func TestOutcomeByPosition(t *testing.T) {
	for _, tc := range []struct {
		name, start, move string
		want              rules.Result
		why               Reason
	}{
		{"mate in one", mateInOne, "Rb5N", rules.WhiteWins, ReasonCheckmate},
		{"stalemate", stalemateInOne, "Qd9KL6", rules.Draw, ReasonStalemate},
		{"dead position", deadInOne, "Kxa6B", rules.Draw, ReasonDeadPosition},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newGame(t, tc.start)
			mv := playAll(t, s, tc.move)
			if got := s.Position().Status().String(); got != string(tc.why) {
				t.Errorf("Status = %s, want %s", got, tc.why)
			}
			if tc.why == ReasonCheckmate && !strings.HasSuffix(mv[0].SAN, "#") {
				t.Errorf("SAN %q has no #", mv[0].SAN)
			}
			if r, why := s.Result(); r != tc.want || why != tc.why {
				t.Errorf("Result = %s, %q; want %s, %q", r, why, tc.want, tc.why)
			}
			if err := s.Resign(rules.Black); !errors.Is(err, ErrGameOver) {
				t.Errorf("Resign after the end: %v", err)
			}
			// Taking the deciding move back reopens the game.
			if _, err := s.TakeBack(); err != nil {
				t.Fatal(err)
			}
			if r, why := s.Result(); r != rules.NoResult || why != ReasonNone {
				t.Errorf("after take-back: Result = %s, %q", r, why)
			}
		})
	}
	t.Run("mated at the start", func(t *testing.T) {
		s, _ := newGame(t, whiteMated)
		if r, why := s.Result(); r != rules.BlackWins || why != ReasonCheckmate {
			t.Errorf("Result = %s, %q; want 0-1, checkmate", r, why)
		}
		_, _, err := s.PlayNotation("Kc1W")
		if want := "game 20250102-030405-000: play Kc1W: game over (0-1, checkmate)"; err == nil || err.Error() != want {
			t.Errorf("play: %v, want %s", err, want)
		}
	})
}

// TestRefused: bad input returns a clear error and changes nothing, not even
// the journal.
func TestRefused(t *testing.T) {
	const id = "game 20250102-030405-000: "
	for _, tc := range []struct {
		name  string
		setup []string
		end   func(*Session) error // ends the game first, if set
		do    func(*Session) error
		want  string
	}{
		{"bad notation", nil, nil, func(s *Session) error { _, _, err := s.PlayNotation("xx"); return err },
			id + `play: st3d: move "xx": no arrival square`},
		{"illegal move", nil, nil, func(s *Session) error { _, _, err := s.PlayNotation("b2W-b5N"); return err },
			id + `play: st3d: move "b2W-b5N": not legal in this position`},
		{"illegal encoded move", nil, nil, func(s *Session) error { _, err := s.Play(0xFFFFF); return err },
			id + "play: move 0xfffff is not legal in " + st3d.Start().String()},
		{"take back nothing", nil, nil, func(s *Session) error { _, err := s.TakeBack(); return err },
			id + "take back: no move to take back"},
		{"accept without offer", []string{"Nc3W"}, nil, func(s *Session) error { return s.AcceptDraw(rules.Black) },
			id + "black: accept a draw: black has no draw offer to answer"},
		{"accept own offer", nil, nil, func(s *Session) error {
			if err := s.OfferDraw(rules.White); err != nil {
				return err
			}
			return s.AcceptDraw(rules.White)
		}, id + "white: accept a draw: white has no draw offer to answer"},
		{"offer twice", nil, nil, func(s *Session) error {
			if err := s.OfferDraw(rules.White); err != nil {
				return err
			}
			return s.OfferDraw(rules.White)
		}, id + "white: offer a draw: white has already offered a draw"},
		{"counter-offer", nil, nil, func(s *Session) error {
			if err := s.OfferDraw(rules.White); err != nil {
				return err
			}
			return s.OfferDraw(rules.Black)
		}, id + "black: offer a draw: white's draw offer is pending: accept or decline it"},
		{"bad side", nil, nil, func(s *Session) error { return s.Resign(rules.Color(7)) },
			id + "resign: side 7: want white or black"},
		{"play after resignation", []string{"Nc3W"}, func(s *Session) error { return s.Resign(rules.Black) },
			func(s *Session) error { _, _, err := s.PlayNotation("Nb6B"); return err },
			id + "play Nb6B: game over (1-0, resignation)"},
		{"take back after resignation", []string{"Nc3W"}, func(s *Session) error { return s.Resign(rules.White) },
			func(s *Session) error { _, err := s.TakeBack(); return err },
			id + "take back: game over (0-1, resignation)"},
		{"offer after agreement", nil, func(s *Session) error {
			if err := s.OfferDraw(rules.White); err != nil {
				return err
			}
			return s.AcceptDraw(rules.Black)
		}, func(s *Session) error { return s.OfferDraw(rules.Black) },
			id + "black: offer a draw: game over (1/2-1/2, agreement)"},
		{"claim after resignation", nil, func(s *Session) error { return s.Resign(rules.Black) },
			func(s *Session) error { _, err := s.ClaimDraw(rules.White, ClaimAny); return err },
			id + "white: claim a draw: game over (1-0, resignation)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newGame(t, "")
			playAll(t, s, tc.setup...)
			if tc.end != nil {
				if err := tc.end(s); err != nil {
					t.Fatal(err)
				}
			}
			before := string(readFile(t, s.Path()))
			moves, pos := s.Moves(), s.Position().String()
			r, why := s.Result()
			offerBy, offered := s.DrawOffer()
			err := tc.do(s)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error:\n got %v\nwant %s", err, tc.want)
			}
			// "offer twice" and the like made a first change on purpose.
			if strings.Contains(tc.name, "offer") && tc.end == nil {
				return
			}
			if after := string(readFile(t, s.Path())); after != before {
				t.Errorf("journal changed:\n%s", strings.TrimPrefix(after, before))
			}
			r2, why2 := s.Result()
			offerBy2, offered2 := s.DrawOffer()
			if !reflect.DeepEqual(s.Moves(), moves) || s.Position().String() != pos || r2 != r || why2 != why ||
				offerBy2 != offerBy || offered2 != offered {
				t.Error("the session changed")
			}
		})
	}
}

func TestClosed(t *testing.T) {
	s, _ := newGame(t, "")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PlayNotation("Nc3W"); !errors.Is(err, ErrClosed) {
		t.Errorf("play after Close: %v", err)
	}
	if err := s.Resign(rules.White); !errors.Is(err, ErrClosed) {
		t.Errorf("resign after Close: %v", err)
	}
}

func TestNewRefusesBadStart(t *testing.T) {
	_, err := New(t.TempDir(), st3d.System, "nonsense", Tags{}, testOpts())
	if err == nil || !strings.HasPrefix(err.Error(), "game: new: start position: ") {
		t.Errorf("New: %v", err)
	}
}

func TestGameIDs(t *testing.T) {
	dir := t.TempDir()
	// The clock stands still, then goes back an hour: ids still grow.
	times := []string{"2025-01-02T03:04:05.123Z", "2025-01-02T03:04:05.123Z", "2025-01-02T02:04:05Z", "2025-01-02T04:00:00.9999Z"}
	var ids []string
	for _, ts := range times {
		o := testOpts()
		o.Now = func() time.Time { t, _ := time.Parse(time.RFC3339Nano, ts); return t }
		s, err := New(dir, st3d.System, "", Tags{}, o)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID())
		s.Close()
	}
	want := []string{"20250102-030405-123", "20250102-030405-124", "20250102-030405-125", "20250102-040000-999"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	games, err := Games(dir)
	if err != nil || !reflect.DeepEqual(games, want) {
		t.Errorf("Games = %v, %v; want %v", games, err, want)
	}
	s, err := Open(dir, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.ID() != want[3] {
		t.Errorf("current game = %s, want %s", s.ID(), want[3])
	}
}

func TestOpenNoGame(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir, nil)
	if !errors.Is(err, ErrNoGame) || err.Error() != "game: open "+dir+": no current game" {
		t.Errorf("Open: %v", err)
	}
	if _, err := os.Stat(dir + "/games"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open created games/: %v", err)
	}
}

// TestConcurrent: commands and readers from several goroutines (run with
// -race).
func TestConcurrent(t *testing.T) {
	s, _ := newGame(t, "")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			s.Moves()
			s.Published()
			s.Position()
			s.Result()
			s.DrawOffer()
			var b strings.Builder
			if err := s.Export(&b); err != nil {
				t.Error(err)
			}
		}
	}()
	playAll(t, s, shuffle...)
	<-done
	if got := len(s.Published()); got != len(shuffle) {
		t.Errorf("%d moves published, want %d", got, len(shuffle))
	}
}

func TestOpenGame(t *testing.T) {
	s, dir := newGame(t, "")
	playAll(t, s, "Nc3W")
	old := s.ID()
	s.Close()
	n, err := New(dir, st3d.System, "", Tags{}, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	n.Close()
	g, err := OpenGame(dir, old, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := longs(g.Moves()); !reflect.DeepEqual(got, []string{"d1W-c3W"}) {
		t.Errorf("old game's moves = %v", got)
	}
	if got := string(readFile(t, dir+"/current")); got != n.ID()+"\n" {
		t.Errorf("current = %q, want %q", got, n.ID())
	}
	if _, err := OpenGame(dir, "../../etc/passwd", nil); err == nil || err.Error() != `game: open: "../../etc/passwd" is not a game id` {
		t.Errorf("OpenGame of a path: %v", err)
	}
}

// Every system of the registry resumes from its journal, options included,
// with no Opts.Systems given.
func TestOpenResumesAnySystem(t *testing.T) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2", "millennium", "first-contact", "first-contact-up"} {
		t.Run(name, func(t *testing.T) {
			sys, err := systems.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			o := DefaultOpts()
			s, err := New(dir, sys, "", Tags{}, &o)
			if err != nil {
				t.Fatal(err)
			}
			m := s.Position().LegalMoves(nil)[0]
			if _, err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			want := s.Position().String()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := Open(dir, &o)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.System().Name() != name || r.Position().String() != want || len(r.Moves()) != 1 {
				t.Errorf("resumed %s at %q with %d moves, want %s at %q with 1", r.System().Name(),
					r.Position().String(), len(r.Moves()), name, want)
			}
		})
	}
}
