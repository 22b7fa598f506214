package tournament

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// TRF-16 (FIDE Handbook C.04 Annex 2) lays a player out in fixed columns:
//
//	001 SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR
//	then per round, from column 92 in steps of 10: opponent (4), colour w/b/-, result
//
// Results: 1 0 = for games played, + - for forfeits, U for the pairing's bye,
// F a full-point bye; a round a player was not paired in is left blank, and a
// game not over has a blank result (so the next round's pairings travel too).

const trfRoundCol = 91 // 0-based column of a round's block (column 92 in TRF's count)

// WriteTRF writes the event as TRF-16: its name, system and every player's
// rounds with results.
func (t *Tournament) WriteTRF(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "012 %s\n", t.Opts.Name)
	fmt.Fprintf(bw, "062 %d\n", len(t.Players))
	kind := "Individual: Swiss-System"
	if t.Opts.System == RoundRobin {
		kind = "Individual: Round-Robin"
	}
	fmt.Fprintf(bw, "092 %s\n", kind)
	if t.Opts.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", t.Opts.Rounds)
	}
	ranks := map[int]int{}
	for _, s := range t.Standings() {
		ranks[s.Player.No] = s.Rank
	}
	half := t.scores()
	h := t.history()
	for _, p := range t.Players {
		title := strings.ToLower(p.Title)
		if len(title) > 3 {
			title = title[:3]
		}
		rating := ""
		if p.Rating > 0 {
			rating = strconv.Itoa(p.Rating)
		}
		line := fmt.Sprintf("001 %4d  %3s %-33s %4s %3s %11s %10s %4.1f %4d",
			p.No, title, p.Name, rating, "", p.FideID, "", float64(half[p.No])/2, ranks[p.No])
		byRound := map[int]entry{}
		for _, e := range h[p.No] {
			byRound[e.round] = e
		}
		for r := 1; r <= len(t.Rounds); r++ {
			e, ok := byRound[r]
			if !ok {
				line += strings.Repeat(" ", 10)
				continue
			}
			line += "  " + trfBlock(t, r, p.No, e)
		}
		fmt.Fprintln(bw, strings.TrimRight(line, " "))
	}
	return bw.Flush()
}

func trfBlock(t *Tournament, round, p int, e entry) string {
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
	return fmt.Sprintf("%4d %s %s", e.opp, c, res)
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

// ReadTRF reads an event from TRF-16: the name (012), the kind (092: a
// round robin if it says so, else a Swiss), the planned rounds (XXR, else
// as many as the file holds), players (001) and their rounds. name is the
// file's name, for errors.
func ReadTRF(r io.Reader, name string) (*Tournament, error) {
	t := &Tournament{Opts: Opts{System: Swiss}}
	type block struct {
		opp    int
		colour byte
		res    byte
	}
	rounds := map[int]map[int]block{} // player -> round -> block
	sc := bufio.NewScanner(io.LimitReader(r, 8<<20))
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	line := 0
	maxRound := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if len(s) < 3 {
			continue
		}
		at := func(format string, a ...any) error {
			return fmt.Errorf("tournament: %s:%d: %s", name, line, fmt.Sprintf(format, a...))
		}
		switch s[:3] {
		case "012":
			t.Opts.Name = strings.TrimSpace(s[3:])
		case "092":
			k := strings.ToLower(s)
			if strings.Contains(k, "round") && strings.Contains(k, "robin") || strings.Contains(k, "berger") {
				t.Opts.System = RoundRobin
			}
		case "XXR":
			n, err := strconv.Atoi(strings.TrimSpace(s[3:]))
			if err != nil || n < 1 || n > 99 {
				return nil, at("XXR %q is not a number of rounds", strings.TrimSpace(s[3:]))
			}
			t.Opts.Rounds = n
		case "001":
			// Columns count characters: a name may hold letters outside
			// ASCII (UTF-8 here).
			rs := []rune(s)
			if len(rs) < 47 {
				return nil, at("a player line (001) is %d characters; TRF's name ends at column 47", len(rs))
			}
			rs = append(rs, []rune(strings.Repeat(" ", 89))...)
			col := func(a, b int) string { return string(rs[a:min(b, len(rs))]) }
			no, err := strconv.Atoi(strings.TrimSpace(col(4, 8)))
			if err != nil || no < 1 || no > maxPlayers {
				return nil, at("start rank %q (columns 5-8) is not a number from 1", strings.TrimSpace(col(4, 8)))
			}
			p := Player{No: no, Name: strings.TrimSpace(col(14, 47)), Title: strings.ToUpper(strings.TrimSpace(col(10, 13)))}
			if err := checkName(p.Name); err != nil {
				return nil, at("%v", err)
			}
			if p.Title != "" && !knownTitles[p.Title] {
				p.Title = "" // TRF also writes arbiters' and others' letters
			}
			if rt := strings.TrimSpace(col(48, 52)); rt != "" {
				if p.Rating, err = strconv.Atoi(rt); err != nil {
					return nil, at("rating %q (columns 49-52) is not a number", rt)
				}
			}
			p.FideID = strings.TrimSpace(col(57, 68))
			for len(t.Players) < no {
				t.Players = append(t.Players, Player{})
			}
			if t.Players[no-1].Name != "" {
				return nil, at("start rank %d twice", no)
			}
			t.Players[no-1] = p
			rounds[no] = map[int]block{}
			for rd, c := 1, trfRoundCol; c < len(rs)-89; rd, c = rd+1, c+10 {
				b := col(c, c+8)
				if strings.TrimSpace(b) == "" {
					continue
				}
				if len(b) < 8 {
					b += strings.Repeat(" ", 8-len(b))
				}
				opp := 0
				if o := strings.TrimSpace(b[:4]); o != "" {
					if opp, err = strconv.Atoi(o); err != nil {
						return nil, at("round %d: opponent %q is not a number", rd, o)
					}
				}
				bl := block{opp: opp, colour: b[5], res: b[7]}
				if !strings.ContainsRune("wb-", rune(bl.colour)) || !strings.ContainsRune("10=+-UF HZ", rune(bl.res)) {
					return nil, at("round %d: %q is not TRF's \"opponent colour result\"", rd, b)
				}
				rounds[no][rd] = bl
				maxRound = max(maxRound, rd)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tournament: %s: %w", name, err)
	}
	for i, p := range t.Players {
		if p.Name == "" {
			return nil, fmt.Errorf("tournament: %s: no player with start rank %d", name, i+1)
		}
	}
	if len(t.Players) < 2 {
		return nil, fmt.Errorf("tournament: %s: %d players; an event needs at least 2", name, len(t.Players))
	}
	if err := checkNames(t.Players); err != nil {
		return nil, fmt.Errorf("tournament: %s: %v", name, err)
	}
	for rd := 1; rd <= maxRound; rd++ {
		var games []Game
		for p := 1; p <= len(t.Players); p++ {
			b, ok := rounds[p][rd]
			if !ok {
				continue
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
				case 'Z', ' ':
					res = ZeroBye
					if t.Opts.System == RoundRobin {
						res = FreeRound
					}
				default:
					return nil, fmt.Errorf("tournament: %s: %s, round %d: no opponent and result %q", name, t.Players[p-1].Name, rd, b.res)
				}
				games = append(games, Game{White: p, Result: res})
				continue
			}
			if b.colour != 'w' {
				continue // the game is read from White's line
			}
			ob, ok := rounds[b.opp][rd]
			if b.opp > len(t.Players) || !ok || ob.opp != p || ob.colour != 'b' {
				return nil, fmt.Errorf("tournament: %s: round %d: %s has White against %d, whose line does not say so", name, rd, t.Players[p-1].Name, b.opp)
			}
			g := Game{White: p, Black: b.opp}
			switch {
			case b.res == ' ' && ob.res == ' ':
			case b.res == '1' && ob.res == '0':
				g.Result = WhiteWins
			case b.res == '0' && ob.res == '1':
				g.Result = BlackWins
			case b.res == '=' && ob.res == '=':
				g.Result = Draw
			case b.res == '+' && ob.res == '-':
				g.Result = WhiteForfeit
			case b.res == '-' && ob.res == '+':
				g.Result = BlackForfeit
			case b.res == '-' && ob.res == '-':
				g.Result = DoubleForfeit
			default:
				return nil, fmt.Errorf("tournament: %s: round %d: %s %c against %s %c do not agree", name, rd, t.Players[p-1].Name, b.res, t.Players[b.opp-1].Name, ob.res)
			}
			games = append(games, g)
		}
		// Boards in the published order, from the scores before the round.
		sc := t.scores()
		rank := t.initialRanks()
		numberBoards(games, func(p int) int { return sc[p] }, func(p int) int { return rank[p] })
		t.Rounds = append(t.Rounds, Round{No: rd, Games: games, Started: anyResult(games)})
	}
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
	sort.SliceStable(t.Players, func(i, j int) bool { return t.Players[i].No < t.Players[j].No })
	return t, nil
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
