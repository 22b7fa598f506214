package tournament

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// TRF-2026 (FIDE's Tournament Report File, C.04 Annex 2, version 2026)
// lays a player out in fixed columns (counted from 1):
//
//	001 SSSS xTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR
//	then per round, from column 92 in steps of 10: opponent (4), colour w/b/-, result
//
// Results: 1 = 0 for games played, + - for forfeits, U the pairing-allocated
// bye, F H Z the full-, half- and zero-point byes; a round a player was not
// paired in is blank, and a game not over has a blank result (a file
// written while a round is played still reads). The tournament's lines:
// 012 name, 022 city, 032 federation, 042/052 dates, 062 players, 072 rated
// players, 092 type, 102 chief arbiter, 112 deputies, 122 time control,
// 132 round dates (from column 92 like the rounds), 142 rounds, 152 the
// initial colour, 240 byes (F H Z) known before their round, 250
// acceleration. The pairing engines' lines are read and written too: XXR
// rounds, XXC the initial colour (white1/black1), XXA acceleration.

const trfRoundCol = 91 // 0-based column of a round's block (column 92 in TRF's count)

// maxTRFRounds bounds the rounds a TRF may hold (XXR's two digits).
const maxTRFRounds = 99

// trfTitle writes the titles as TRF-2026 lists them.
var trfTitles = map[string]string{"GM": "GM", "IM": "IM", "WGM": "WGM", "FM": "FM", "WIM": "WIM",
	"CM": "CM", "WFM": "WFM", "WCM": "WCM",
	// TRF-16's one- and two-letter codes, read too.
	"G": "GM", "M": "IM", "WG": "WGM", "F": "FM", "WM": "WIM", "C": "CM", "WF": "WFM", "WC": "WCM"}

// WriteTRF writes the event as TRF-2026: its header, every player's rounds
// with results, and the lines the pairing engines read.
func (t *Tournament) WriteTRF(w io.Writer) error {
	bw := bufio.NewWriter(w)
	ev := t.Opts.Event
	line := func(tag, s string) {
		if s != "" {
			fmt.Fprintf(bw, "%s %s\n", tag, s)
		}
	}
	line("012", t.Opts.Name)
	line("022", ev.City)
	line("032", ev.Federation)
	line("042", ev.Start)
	line("052", ev.End)
	fmt.Fprintf(bw, "062 %d\n", len(t.Players))
	rated := 0
	for _, p := range t.Players {
		if p.Rating > 0 {
			rated++
		}
	}
	fmt.Fprintf(bw, "072 %d\n", rated)
	kind := "Individual: Swiss-System"
	if t.Opts.System == RoundRobin {
		kind = "Individual: Round-Robin"
	}
	line("092", kind)
	line("102", ev.Arbiter)
	for _, d := range ev.Deputies {
		line("112", d)
	}
	line("122", ev.TimeControl)
	if len(ev.RoundDates) > 0 {
		l := "132" + strings.Repeat(" ", trfRoundCol-3)
		for i, d := range ev.RoundDates {
			if i > 0 {
				l += "  "
			}
			l += fmt.Sprintf("%-8s", d)
		}
		fmt.Fprintln(bw, strings.TrimRight(l, " "))
	}
	if t.Opts.Rounds > 0 {
		fmt.Fprintf(bw, "142 %d\n", t.Opts.Rounds)
	}
	ic, xxc := "W", "white1"
	if t.Opts.InitialColour == Black {
		ic, xxc = "B", "black1"
	}
	fmt.Fprintf(bw, "152 %s\n", ic)
	if t.Opts.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", t.Opts.Rounds)
	}
	fmt.Fprintf(bw, "XXC %s\n", xxc)
	for _, a := range t.Opts.Accel { // First..Last are pairing numbers already
		fmt.Fprintf(bw, "250      %4.1f %03d %03d %04d %04d\n", float64(a.Half)/2, a.FromRound, a.ToRound, a.First, a.Last)
	}
	ranks := map[int]int{}
	for _, s := range t.Standings() {
		ranks[s.Player.No] = s.Rank
	}
	half := t.scores()
	h := t.history()
	next := len(t.Rounds) + 1
	// Start ranks are the pairing numbers, and the players are listed in
	// their order: a pairing engine reading the file pairs as we do.
	tpn := t.PairingNumbers()
	order := make([]Player, len(t.Players))
	for _, p := range t.Players {
		order[tpn[p.No]-1] = p
	}
	for _, p := range order {
		rating := ""
		if p.Rating > 0 {
			rating = strconv.Itoa(p.Rating)
		}
		sex := p.Sex
		if sex == "" {
			sex = " "
		}
		l := fmt.Sprintf("001 %4d %1s%3s %-33s %4s %3s %11s %10s %4.1f %4d",
			tpn[p.No], sex, p.Title, p.Name, rating, p.Federation, p.FideID, p.Birth, float64(half[p.No])/2, ranks[p.No])
		byRound := map[int]entry{}
		for _, e := range h[p.No] {
			byRound[e.round] = e
		}
		for r := 1; r <= len(t.Rounds); r++ {
			e, ok := byRound[r]
			if !ok {
				l += strings.Repeat(" ", 10)
				continue
			}
			l += "  " + trfBlock(t, r, p.No, e, tpn)
		}
		if next <= t.Opts.Rounds {
			// The next round's known byes, as the pairing engines read
			// them; a withdrawn player is absent (Z).
			if b, ok := p.Byes[next]; ok {
				l += "  0000 - " + trfByeCode(b)
			} else if p.Withdrawn {
				l += "  0000 - Z"
			}
		}
		fmt.Fprintln(bw, strings.TrimRight(l, " "))
	}
	// Byes known for rounds after the next (240: type, round, players).
	type req struct {
		kind  string
		round int
	}
	later := map[req][]int{}
	for _, p := range t.Players {
		for r, b := range p.Byes {
			if r > next && r <= t.Opts.Rounds {
				k := req{trfByeCode(b), r}
				later[k] = append(later[k], tpn[p.No])
			}
		}
	}
	var keys []req
	for k := range later {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].round != keys[j].round {
			return keys[i].round < keys[j].round
		}
		return keys[i].kind < keys[j].kind
	})
	for _, k := range keys {
		sort.Ints(later[k])
		l := fmt.Sprintf("240 %s %03d", k.kind, k.round)
		for _, p := range later[k] {
			l += fmt.Sprintf(" %4d", p)
		}
		fmt.Fprintln(bw, l)
	}
	return bw.Flush()
}

func trfBlock(t *Tournament, round, p int, e entry, tpn []int) string {
	g := t.gameOf(round, p)
	if g.IsBye() {
		return "0000 - " + trfByeCode(g.Result)
	}
	c := "w"
	if g.Black == p {
		c = "b"
	}
	res := " "
	switch {
	case !g.Result.Over():
	case g.Result.Played():
		res = map[int]string{2: "1", 1: "=", 0: "0"}[e.half]
	case e.half == 2:
		res = "+"
	default:
		res = "-"
	}
	return fmt.Sprintf("%4d %s %s", tpn[e.opp], c, res)
}

// trfByeCode is TRF's letter for a bye of kind r.
func trfByeCode(r Result) string {
	switch r {
	case FullBye:
		return "F"
	case HalfBye:
		return "H"
	case ZeroBye, FreeRound:
		return "Z"
	}
	return "U"
}

func (t *Tournament) gameOf(round, p int) Game {
	for _, g := range t.Rounds[round-1].Games {
		if g.White == p || g.Black == p {
			return g
		}
	}
	return Game{}
}

// TRFError is a TRF refused: the file, its line and column (from 1; 0
// when the error is the file's as a whole) and what is wrong.
type TRFError struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *TRFError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("tournament: %s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("tournament: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("tournament: %s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// ReadTRF reads an event from a TRF (2026, or TRF-16 before it): the
// header, the kind (092: a round robin if it says so, else a Swiss), the
// planned rounds (142 or XXR, else as many as the file holds), the initial
// colour (152 or XXC), acceleration (250 or XXA), byes known in advance
// (240, or the blocks of the round after the last one paired), players
// (001, whose start ranks are the pairing numbers) and their rounds. A
// round whose games have no result yet (a file written mid-round) is read
// as paired, not started. name is the file's name, for errors, which are
// *TRFError with the line and column.
func ReadTRF(r io.Reader, name string) (*Tournament, error) {
	t := &Tournament{Opts: Opts{System: Swiss, ByNumber: true}}
	type block struct {
		opp    int
		colour byte
		res    byte
		line   int
		col    int
	}
	rounds := map[int]map[int]block{} // player -> round -> block
	playerLine := map[int]int{}
	type byeReq struct {
		kind      byte
		round, no int
		line, col int
	}
	var byeReqs []byeReq
	type xxa struct {
		no   int
		half []int
	}
	var xxas []xxa
	sc := bufio.NewScanner(io.LimitReader(r, 8<<20))
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	line := 0
	maxRound := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if len(s) < 3 || strings.HasPrefix(s, "###") {
			continue
		}
		atc := func(col int, format string, a ...any) error {
			return &TRFError{name, line, col, fmt.Sprintf(format, a...)}
		}
		rest := strings.TrimSpace(s[3:])
		switch s[:3] {
		case "012":
			t.Opts.Name = rest
		case "022":
			t.Opts.Event.City = rest
		case "032":
			t.Opts.Event.Federation = rest
		case "042":
			t.Opts.Event.Start = rest
		case "052":
			t.Opts.Event.End = rest
		case "102":
			t.Opts.Event.Arbiter = rest
		case "112":
			t.Opts.Event.Deputies = append(t.Opts.Event.Deputies, rest)
		case "122":
			t.Opts.Event.TimeControl = rest
		case "132":
			rs := []rune(s)
			for c := trfRoundCol; c < len(rs) && len(t.Opts.Event.RoundDates) < maxTRFRounds; c += 10 {
				t.Opts.Event.RoundDates = append(t.Opts.Event.RoundDates, strings.TrimSpace(string(rs[c:min(c+8, len(rs))])))
			}
		case "092":
			k := strings.ToLower(s)
			if strings.Contains(k, "round") && strings.Contains(k, "robin") || strings.Contains(k, "berger") {
				t.Opts.System = RoundRobin
			}
		case "142", "XXR":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > maxTRFRounds {
				return nil, atc(5, "%s %q is not a number of rounds from 1 to %d", s[:3], rest, maxTRFRounds)
			}
			t.Opts.Rounds = n
		case "152":
			switch strings.ToUpper(rest) {
			case "W":
				t.Opts.InitialColour = White
			case "B":
				t.Opts.InitialColour = Black
			default:
				return nil, atc(5, "initial colour %q: want W or B", rest)
			}
		case "XXC":
			for _, f := range strings.Fields(strings.ToLower(rest)) {
				switch f {
				case "white1":
					t.Opts.InitialColour = White
				case "black1":
					t.Opts.InitialColour = Black
				case "rank":
				default:
					return nil, atc(5, "XXC %q: want white1 or black1", f)
				}
			}
		case "XXA":
			f := strings.Fields(rest)
			if len(f) < 1 {
				return nil, atc(5, "XXA without a player")
			}
			no, err := strconv.Atoi(f[0])
			if err != nil || no < 1 || no > maxPlayers {
				return nil, atc(5, "XXA player %q is not a start rank", f[0])
			}
			a := xxa{no: no}
			for i, v := range f[1:] {
				h, err := trfHalves(v)
				if err != nil || i >= maxTRFRounds {
					return nil, atc(10+5*i, "XXA round %d: %q is not a number of points", i+1, v)
				}
				a.half = append(a.half, h)
			}
			xxas = append(xxas, a)
		case "250":
			// 250 MMMM GGGG RRF RRL PPPF PPPL (columns 5-8 are team points).
			f := strings.Fields(s[3:])
			if len(f) == 5 {
				f = append([]string{""}, f...)
			}
			if len(f) != 6 {
				return nil, atc(5, "an acceleration line (250) has %d fields, want points, rounds and players", len(f))
			}
			h, err := trfHalves(f[1])
			var nums [4]int
			for i := range nums {
				if err == nil {
					nums[i], err = strconv.Atoi(f[2+i])
				}
			}
			if err != nil || nums[0] < 1 || nums[1] < nums[0] || nums[1] > maxTRFRounds || nums[2] < 1 || nums[3] < nums[2] {
				return nil, atc(5, "acceleration %q: want points, first and last round, first and last player", strings.TrimSpace(s[3:]))
			}
			t.Opts.Accel = append(t.Opts.Accel, Accel{Half: h, FromRound: nums[0], ToRound: nums[1], First: nums[2], Last: nums[3]})
		case "240":
			f := strings.Fields(s[3:])
			if len(f) < 3 || len(f[0]) != 1 || !strings.Contains("FHZ", strings.ToUpper(f[0])) {
				return nil, atc(5, "a bye line (240) wants F, H or Z, a round and players")
			}
			rd, err := strconv.Atoi(f[1])
			if err != nil || rd < 1 || rd > maxTRFRounds {
				return nil, atc(7, "bye round %q is not a round", f[1])
			}
			for i, v := range f[2:] {
				no, err := strconv.Atoi(v)
				if err != nil || no < 1 || no > maxPlayers {
					return nil, atc(11+5*i, "bye player %q is not a start rank", v)
				}
				byeReqs = append(byeReqs, byeReq{strings.ToUpper(f[0])[0], rd, no, line, 11 + 5*i})
			}
		case "001":
			// Columns count characters: a name may hold letters outside
			// ASCII (UTF-8 here).
			rs := []rune(s)
			if len(rs) < 47 {
				return nil, atc(len(rs)+1, "a player line (001) is %d characters; TRF's name ends at column 47", len(rs))
			}
			rs = append(rs, []rune(strings.Repeat(" ", 89))...)
			col := func(a, b int) string { return string(rs[a:min(b, len(rs))]) }
			no, err := strconv.Atoi(strings.TrimSpace(col(4, 8)))
			if err != nil || no < 1 || no > maxPlayers {
				return nil, atc(5, "start rank %q (columns 5-8) is not a number from 1 to %d", strings.TrimSpace(col(4, 8)), maxPlayers)
			}
			p := Player{No: no, Name: strings.TrimSpace(col(14, 47)), Sex: strings.TrimSpace(col(9, 10)),
				Federation: strings.TrimSpace(col(53, 56)), Birth: strings.TrimSpace(col(69, 79))}
			if err := checkName(p.Name); err != nil {
				return nil, atc(15, "%v", err)
			}
			if ti := strings.ToUpper(strings.TrimSpace(col(10, 13))); ti != "" {
				p.Title = trfTitles[ti] // other letters (arbiters' titles): none
			}
			if rt := strings.TrimSpace(col(48, 52)); rt != "" {
				if p.Rating, err = strconv.Atoi(rt); err != nil || p.Rating < 0 {
					return nil, atc(49, "rating %q (columns 49-52) is not a number", rt)
				}
			}
			p.FideID = strings.TrimSpace(col(57, 68))
			if p.FideID != "" && !isDigits(p.FideID) {
				return nil, atc(58, "FIDE number %q (columns 58-68) is not a number", p.FideID)
			}
			for len(t.Players) < no {
				t.Players = append(t.Players, Player{})
			}
			if t.Players[no-1].Name != "" {
				return nil, atc(5, "start rank %d twice (first on line %d)", no, playerLine[no])
			}
			t.Players[no-1] = p
			playerLine[no] = line
			rounds[no] = map[int]block{}
			for rd, c := 1, trfRoundCol; c < len(rs)-89; rd, c = rd+1, c+10 {
				b := col(c, c+8)
				if strings.TrimSpace(b) == "" {
					continue
				}
				if rd > maxTRFRounds {
					return nil, atc(c+1, "more than %d rounds", maxTRFRounds)
				}
				b += strings.Repeat(" ", max(0, 8-len(b)))
				opp := 0
				if o := strings.TrimSpace(b[:4]); o != "" {
					if opp, err = strconv.Atoi(o); err != nil || opp < 0 {
						return nil, atc(c+1, "round %d: opponent %q is not a start rank", rd, o)
					}
				}
				res := b[7]
				if res >= 'a' && res <= 'z' {
					res -= 'a' - 'A' // letter codes are case-insensitive
				}
				bl := block{opp: opp, colour: b[5], res: res, line: line, col: c + 1}
				if bl.colour == ' ' {
					bl.colour = '-'
				}
				if !strings.ContainsRune("wb-", rune(bl.colour)) {
					return nil, atc(c+6, "round %d: colour %q: want w, b or -", rd, string(bl.colour))
				}
				if !strings.ContainsRune("10=+-UFHZWDL ", rune(bl.res)) {
					return nil, atc(c+8, "round %d: result %q is not one of TRF's (1 = 0 + - W D L U F H Z)", rd, string(b[7]))
				}
				rounds[no][rd] = bl
				maxRound = max(maxRound, rd)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &TRFError{name, line + 1, 0, err.Error()}
	}
	for i, p := range t.Players {
		if p.Name == "" {
			return nil, &TRFError{name, 0, 0, fmt.Sprintf("no player with start rank %d", i+1)}
		}
	}
	if len(t.Players) < 2 {
		return nil, &TRFError{name, 0, 0, fmt.Sprintf("%d players; an event needs at least 2", len(t.Players))}
	}
	if err := checkNames(t.Players); err != nil {
		return nil, &TRFError{name, 0, 0, err.Error()}
	}
	// The round after the last one played may hold only byes asked for
	// (the pairing engines' way to say who is not to be paired): those are
	// requests, not a round.
	if maxRound > 0 {
		onlyRequests := true
		for p := 1; p <= len(t.Players); p++ {
			if b, ok := rounds[p][maxRound]; ok && !(b.opp == 0 && strings.ContainsRune("FHZ-", rune(b.res))) {
				onlyRequests = false
			}
		}
		if onlyRequests {
			for p := 1; p <= len(t.Players); p++ {
				if b, ok := rounds[p][maxRound]; ok {
					byeReqs = append(byeReqs, byeReq{b.res, maxRound, p, b.line, b.col})
					delete(rounds[p], maxRound)
				}
			}
			maxRound--
		}
	}
	for rd := 1; rd <= maxRound; rd++ {
		var games []Game
		for p := 1; p <= len(t.Players); p++ {
			b, ok := rounds[p][rd]
			if !ok {
				continue
			}
			bad := func(col int, format string, a ...any) error {
				return &TRFError{name, b.line, col, fmt.Sprintf("%s, round %d: ", t.Players[p-1].Name, rd) + fmt.Sprintf(format, a...)}
			}
			if b.opp == 0 {
				var res Result
				switch b.res {
				case 'U':
					res = Bye
				case 'F':
					res = FullBye
				case 'H':
					res = HalfBye
				case 'Z', ' ', '-':
					res = ZeroBye
					if t.Opts.System == RoundRobin {
						res = FreeRound
					}
				default:
					return nil, bad(b.col+7, "no opponent and result %q", string(b.res))
				}
				games = append(games, Game{White: p, Result: res})
				continue
			}
			if b.opp > len(t.Players) {
				return nil, bad(b.col, "no player %d", b.opp)
			}
			if b.opp == p {
				return nil, bad(b.col, "paired against themselves")
			}
			ob, ok := rounds[b.opp][rd]
			if !ok || ob.opp != p || ob.colour == b.colour || b.colour == '-' || ob.colour == '-' {
				return nil, bad(b.col, "has %c against %d, whose line does not say so", b.colour, b.opp)
			}
			if b.colour != 'w' {
				continue // the game is read from White's line
			}
			g := Game{White: p, Black: b.opp}
			switch {
			case b.res == ' ' && ob.res == ' ':
			case b.res == '1' && ob.res == '0', b.res == 'W' && ob.res == 'L':
				g.Result = WhiteWins
			case b.res == '0' && ob.res == '1', b.res == 'L' && ob.res == 'W':
				g.Result = BlackWins
			case b.res == '=' && ob.res == '=', b.res == 'D' && ob.res == 'D':
				g.Result = Draw
			case b.res == '+' && ob.res == '-':
				g.Result = WhiteForfeit
			case b.res == '-' && ob.res == '+':
				g.Result = BlackForfeit
			case b.res == '-' && ob.res == '-':
				g.Result = DoubleForfeit
			default:
				return nil, bad(b.col+7, "%c against %s %c do not agree", b.res, t.Players[b.opp-1].Name, ob.res)
			}
			games = append(games, g)
		}
		// Boards in the published order, from the scores before the round.
		sc := t.scores()
		rank := t.PairingNumbers()
		numberBoards(games, func(p int) int { return sc[p] }, func(p int) int { return rank[p] })
		t.Rounds = append(t.Rounds, Round{No: rd, Games: games, Started: anyResult(games)})
	}
	for _, b := range byeReqs {
		if b.no > len(t.Players) {
			return nil, &TRFError{name, b.line, b.col, fmt.Sprintf("bye for player %d, who is not in the file", b.no)}
		}
		if b.round <= len(t.Rounds) {
			return nil, &TRFError{name, b.line, b.col, fmt.Sprintf("a bye asked for round %d, already paired", b.round)}
		}
		p := &t.Players[b.no-1]
		if p.Byes == nil {
			p.Byes = map[int]Result{}
		}
		p.Byes[b.round] = map[byte]Result{'F': FullBye, 'H': HalfBye, 'Z': ZeroBye, '-': ZeroBye}[b.kind]
	}
	for _, a := range xxas {
		if a.no > len(t.Players) {
			return nil, &TRFError{name, 0, 0, fmt.Sprintf("XXA for player %d, who is not in the file", a.no)}
		}
		for i, h := range a.half {
			if h != 0 {
				t.Opts.Accel = append(t.Opts.Accel, Accel{Half: h, FromRound: i + 1, ToRound: i + 1, First: a.no, Last: a.no})
			}
		}
	}
	t.roundsUnknown = t.Opts.Rounds == 0
	if t.Opts.Rounds < len(t.Rounds) {
		t.Opts.Rounds = len(t.Rounds)
	}
	if t.Opts.Name == "" {
		t.Opts.Name = name
	}
	// Players with no game in the first rounds entered late.
	for i := range t.Players {
		for rd := 1; rd <= len(t.Rounds); rd++ {
			if _, ok := rounds[i+1][rd]; ok {
				break
			}
			t.Players[i].From = rd + 1
		}
	}
	return t, nil
}

// trfHalves reads TRF's points ("1.0", "0.5", "1") as half points.
func trfHalves(s string) (int, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < -99 || f > 99 || f*2 != float64(int(f*2)) {
		return 0, fmt.Errorf("%q is not a number of points", s)
	}
	return int(f * 2), nil
}

// anyResult reports whether any game (not a bye) of a round has a result:
// such a round was played, not just paired.
func anyResult(games []Game) bool {
	for _, g := range games {
		if !g.IsBye() && g.Result.Over() {
			return true
		}
	}
	return false
}
