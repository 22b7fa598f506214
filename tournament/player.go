package tournament

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Player is one entrant. No is the pairing number (from 1).
type Player struct {
	No     int    `json:"no"`
	Name   string `json:"name"`
	Rating int    `json:"rating,omitempty"`
	Title  string `json:"title,omitempty"`
	FideID string `json:"fide_id,omitempty"`
	// Federation (three letters), Sex (m or w) and Birth (YYYY/MM/DD) are
	// carried for the rating report (TRF).
	Federation string `json:"federation,omitempty"`
	Sex        string `json:"sex,omitempty"`
	Birth      string `json:"birth,omitempty"`
	// Withdrawn players are not paired from the round after they withdrew.
	Withdrawn bool `json:"withdrawn,omitempty"`
	// From is the first round the player is paired in (late entries); 0 and
	// 1 both mean the first round.
	From int `json:"from,omitempty"`
	// Byes are the rounds the player does not play, known before they are
	// paired (C.04.2 3.3): a half-point bye, a full-point bye or a
	// zero-point bye (an announced absence), by round.
	Byes map[int]Result `json:"byes,omitempty"`
}

// maxPlayers bounds a players file: more than any hall holds, little enough
// that a wrong file (a log, a binary) is refused before it costs anything.
const maxPlayers = 2000

// knownTitles are FIDE's titles as TRF writes them (lower case there).
var knownTitles = map[string]bool{"GM": true, "IM": true, "FM": true, "CM": true,
	"WGM": true, "WIM": true, "WFM": true, "WCM": true}

// ReadPlayers reads a players file: one player a line,
// `Name[,rating[,title[,fide-id]]]`; blank lines and lines starting with #
// are skipped. A file whose first non-blank line starts with "012" or "001"
// is read as TRF-16 instead (its 001 lines). name is the file's name, for
// errors.
func ReadPlayers(r io.Reader, name string) ([]Player, error) {
	data, err := io.ReadAll(io.LimitReader(r, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("tournament: %s: %w", name, err)
	}
	text := string(data)
	first := strings.TrimSpace(text)
	if strings.HasPrefix(first, "012") || strings.HasPrefix(first, "001") ||
		strings.HasPrefix(first, "022") || strings.HasPrefix(first, "XXR") {
		t, err := ReadTRF(strings.NewReader(text), name)
		if err != nil {
			return nil, err
		}
		return t.Players, nil
	}
	var players []Player
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		p, err := parsePlayerLine(s)
		if err != nil {
			return nil, fmt.Errorf("tournament: %s:%d: %v", name, line, err)
		}
		if len(players) == maxPlayers {
			return nil, fmt.Errorf("tournament: %s:%d: more than %d players", name, line, maxPlayers)
		}
		p.No = len(players) + 1
		players = append(players, p)
	}
	if len(players) < 2 {
		return nil, fmt.Errorf("tournament: %s: %d players; an event needs at least 2", name, len(players))
	}
	if err := checkNames(players); err != nil {
		return nil, fmt.Errorf("tournament: %s: %v", name, err)
	}
	return players, nil
}

func parsePlayerLine(s string) (Player, error) {
	f := strings.Split(s, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	// The name runs to the first field that is a number or empty, so that a
	// name may hold commas as TRF writes them ("Last,First").
	n := 1
	for n < len(f) && f[n] != "" && !isDigits(f[n]) {
		n++
	}
	name := strings.Join(f[:n], ", ")
	f = append([]string{name}, f[n:]...)
	if len(f) > 4 {
		return Player{}, fmt.Errorf("%q: want Name[,rating[,title[,fide-id]]], got %d fields after the name", s, len(f)-1)
	}
	p := Player{Name: f[0]}
	if err := checkName(p.Name); err != nil {
		return Player{}, err
	}
	if len(f) > 1 && f[1] != "" {
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n > 3500 {
			return Player{}, fmt.Errorf("%s: rating %q is not a number from 0 to 3500", p.Name, f[1])
		}
		p.Rating = n
	}
	if len(f) > 2 && f[2] != "" {
		t := strings.ToUpper(f[2])
		if !knownTitles[t] {
			return Player{}, fmt.Errorf("%s: title %q is not one of GM IM FM CM WGM WIM WFM WCM", p.Name, f[2])
		}
		p.Title = t
	}
	if len(f) > 3 && f[3] != "" {
		if _, err := strconv.ParseUint(f[3], 10, 40); err != nil || len(f[3]) > 11 {
			return Player{}, fmt.Errorf("%s: FIDE id %q is not a number of up to 11 digits", p.Name, f[3])
		}
		p.FideID = f[3]
	}
	return p, nil
}

func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("a player needs a name")
	case utf8.RuneCountInString(name) > 33:
		return fmt.Errorf("name %q is longer than 33 characters (TRF's field)", name)
	case strings.ContainsAny(name, "\"\\\t"):
		return fmt.Errorf("name %q holds a quote, backslash or tab", name)
	}
	return nil
}

func checkNames(players []Player) error {
	seen := map[string]bool{}
	for _, p := range players {
		k := strings.ToLower(p.Name)
		if seen[k] {
			return fmt.Errorf("player %q is entered twice", p.Name)
		}
		seen[k] = true
	}
	return nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
