package setup

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tridboard/tridboard/rules/systems"
)

// Identity is the set's name and the rule system of its next games, as
// the setup page shows and saves them.
type Identity struct {
	// Name is the set's board_id: its MQTT topics, its pages' address and
	// the name it announces on the network.
	Name string `json:"board_id"`
	// Variant and Options are the rule system of new games (a game in
	// progress keeps its own).
	Variant string `json:"variant"`
	Options string `json:"options"`
}

// Current is the running set as the page shows it.
type Current struct {
	Identity
	// Game is the system of the game on the set and Moves its moves;
	// InProgress says it has not ended (it goes on after a save).
	Game       string `json:"game_variant"`
	Moves      int    `json:"game_moves"`
	InProgress bool   `json:"game_in_progress"`
}

// Check says what is wrong with id, field by field, or nil. The name is
// a host name's label (RFC 1123: 1 to 63 letters, digits and hyphens, no
// hyphen first or last), since the set announces it on the network and
// its pages' addresses hold it; the variant is a registered system
// (systems.Names), its options ones that system reads.
func (id Identity) Check() error {
	var errs []error
	if err := checkName(id.Name); err != nil {
		errs = append(errs, err)
	}
	if e, ok := systems.Find(id.Variant); !ok {
		errs = append(errs, fmt.Errorf("the rules system %q is not one of %s", id.Variant, strings.Join(systems.Names(), ", ")))
	} else if id.Options != "" && e.Options == nil {
		errs = append(errs, fmt.Errorf("the rules system %s has no options (%q given)", id.Variant, id.Options))
	} else if _, err := systems.Lookup(id.Variant, id.Options); err != nil {
		errs = append(errs, fmt.Errorf("the options %q: %v", id.Options, err))
	}
	if len(errs) > 0 {
		return fmt.Errorf("setup: name and rules: %w", errors.Join(errs...))
	}
	return nil
}

func checkName(n string) error {
	switch {
	case n == "":
		return errors.New("the name is empty")
	case len(n) > 63:
		return fmt.Errorf("the name is %d characters long: at most 63", len(n))
	case n[0] == '-' || n[len(n)-1] == '-':
		return fmt.Errorf("the name %q begins or ends with a hyphen", n)
	}
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("the name %q holds %q: letters, digits and hyphens only (it is the set's name on the network)", n, c)
		}
	}
	return nil
}

// System is a rules system the page offers.
type System struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Set is the set it is played on ("a Star Trek 3D chess set").
	Set string `json:"set"`
	// Options are the options the page offers for it (none: no options).
	Options []Option `json:"options,omitempty"`
}

// Option is one of a system's options, as the page offers it: a rule
// (a check box) or a setup (one of a list, none being the usual one).
type Option struct {
	Code  string `json:"code"`
	Title string `json:"title"`
	Setup bool   `json:"setup,omitempty"`
}

// titles are the systems' names for people; a system registered without
// one here shows its name.
var titles = map[string]string{
	"st3d":             "Star Trek 3D chess",
	"millennium":       "Millennium 3D chess",
	"first-contact":    "First Contact",
	"first-contact-up": "First Contact, platforms upright only",
}

// st3dOptions are the options of st3d the page offers: those a game
// starts with from nothing more than their name (not V.P3 and V.P4,
// whose setups are a position string, nor V.A3's count of boards).
var st3dOptions = []Option{
	{Code: "V.A1", Title: "Peters: occupied attack boards move forward or sideways, empty ones backward or sideways"},
	{Code: "V.A2", Title: "an attack board holding one piece may be turned"},
	{Code: "V.A2.1", Title: "attack boards move exactly two ranks, never sideways"},
	{Code: "V.A3", Title: "a pawn may promote to an attack board"},
	{Code: "V.A4", Title: "neutral attack boards on KL3 and QL4"},
	{Code: "V.A5", Title: "Dayson: own attack boards only, one main board up or down"},
	{Code: "V.P1", Title: "Trylch's setup: bishops and knights exchanged", Setup: true},
	{Code: "V.P2", Title: "Smith's setup: king and queen to the centre, no castling", Setup: true},
	{Code: "V.P5", Title: "3D Chess960: a setup drawn at random each game", Setup: true},
	{Code: "V.P6", Title: "free placement", Setup: true},
}

// Systems lists the registered systems for the page, by name.
func Systems() []System {
	var out []System
	for _, n := range systems.Names() {
		e, _ := systems.Find(n)
		s := System{Name: n, Title: titles[n], Set: e.Caps.Set}
		if s.Title == "" {
			s.Title = n
		}
		if n == "st3d" {
			s.Options = st3dOptions
		}
		out = append(out, s)
	}
	return out
}

func (o Opts) set(w http.ResponseWriter, r *http.Request) {
	if o.Current == nil {
		fail(w, http.StatusNotFound, "this set's name and rules are not set from this page")
		return
	}
	reply(w, http.StatusOK, map[string]any{"current": o.Current(), "systems": Systems(), "saving": o.Save != nil && o.Token != ""})
}

func (o Opts) saveSet(w http.ResponseWriter, r *http.Request) {
	var id Identity
	if !o.command(w, r, o.Save != nil, "setting the name and rules is off here (no command token configured)", &id, "board_id, variant, options") {
		return
	}
	id.Name, id.Variant, id.Options = strings.TrimSpace(id.Name), strings.TrimSpace(id.Variant), strings.TrimSpace(id.Options)
	if err := id.Check(); err != nil {
		fail(w, http.StatusBadRequest, reason(err, "setup: name and rules: "))
		return
	}
	msg, err := o.Save(id)
	if err != nil {
		fail(w, http.StatusConflict, reason(err, "setup: name and rules: "))
		return
	}
	reply(w, http.StatusOK, map[string]string{"status": "ok", "message": msg})
}

// reason is err's message for the page: its prefix off, one line.
func reason(err error, prefix string) string {
	return strings.ReplaceAll(strings.TrimPrefix(err.Error(), prefix), "\n", "; ")
}
