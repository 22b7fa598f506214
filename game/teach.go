package game

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Assist is how much the set helps one side (as ChessUp's assistance
// levels): a learner's side gets everything, a teacher's nothing.
type Assist string

// Assistance levels.
const (
	// AssistFull: the legal targets of a lifted piece on the LEDs, hints,
	// and illegal moves explained with the fix in words.
	AssistFull Assist = "full"
	// AssistExplain: illegal moves explained with the fix in words; no
	// targets, no hints.
	AssistExplain Assist = "explain"
	// AssistNone: nothing but the cells to fix.
	AssistNone Assist = "none"
)

// ParseAssist reads an assistance level: "full", "explain" or "none".
func ParseAssist(s string) (Assist, error) {
	switch a := Assist(s); a {
	case AssistFull, AssistExplain, AssistNone:
		return a, nil
	}
	return "", fmt.Errorf("assistance %q: want \"full\", \"explain\" or \"none\"", s)
}

// Targets reports whether the side sees the legal targets of a lifted piece.
func (a Assist) Targets() bool { return a == AssistFull || a == "" }

// Hints reports whether the side may ask for hints.
func (a Assist) Hints() bool { return a == AssistFull || a == "" }

// Explains reports whether the side's illegal moves are explained.
func (a Assist) Explains() bool { return a != AssistNone }

// MaxHintLimit bounds a side's hint limit (Teaching.Limit).
const MaxHintLimit = 1000

// Teaching is the teacher's settings of a game: the lock, each side's hint
// limit and assistance. The journal keeps them, so a restart keeps them.
type Teaching struct {
	// Locked is the teacher's lock: no hints and no targets, for both sides.
	Locked bool `json:"locked,omitempty"`
	// Limit is the number of hints each side may have in the game (by
	// rules.Color); negative: no limit.
	Limit [2]int `json:"limit"`
	// Assist is each side's assistance (by rules.Color).
	Assist [2]Assist `json:"assist"`
}

// Check reports a setting out of range.
func (t *Teaching) Check() error {
	for side, a := range t.Assist {
		if _, err := ParseAssist(string(a)); err != nil {
			return fmt.Errorf("%s: %w", rules.Color(side), err)
		}
	}
	for side, n := range t.Limit {
		if n < -1 || n > MaxHintLimit {
			return fmt.Errorf("%s: hint limit %d: want -1 (no limit) to %d", rules.Color(side), n, MaxHintLimit)
		}
	}
	return nil
}

// teachState is the teaching part of a session.
type teachState struct {
	set   bool // a teach record was journaled
	t     Teaching
	hints [2]int // hints used, by side
}

// Teaching returns the game's teacher's settings, and false when none were
// journaled (the table's defaults apply).
func (s *Session) Teaching() (Teaching, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.teach.t, s.teach.set
}

// SetTeaching journals the teacher's settings of the game. Settings out of
// range are refused and change nothing. It works in a game over too.
func (s *Session) SetTeaching(t Teaching) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if err := t.Check(); err != nil {
		return s.refuse("teach", err)
	}
	return s.do(&entry{T: kindTeach, Teach: &t, Time: s.opts.now()}, 0)
}

// HintsUsed counts each side's hints in the game (by rules.Color).
func (s *Session) HintsUsed() [2]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.teach.hints
}

// UseHint journals a hint given to side; at is when.
func (s *Session) UseHint(side rules.Color, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if side != rules.White && side != rules.Black {
		return s.refuse("hint", fmt.Errorf("side %d: want white or black", side))
	}
	if at.IsZero() {
		at = s.opts.now()
	}
	return s.do(&entry{T: kindHint, Side: side.String(), Time: at.UTC()}, 0)
}

// replayTeach checks a teach or hint record.
func (s *Session) replayTeach(e *entry) error {
	if e.T == kindHint {
		_, err := rules.ParseColor(e.Side)
		return err
	}
	if e.Teach == nil {
		return fmt.Errorf("teach record without settings")
	}
	return e.Teach.Check()
}

// applyTeach makes a checked teach or hint record take effect.
func (s *Session) applyTeach(e *entry) {
	if e.T == kindHint {
		s.teach.hints[sideOf(e.Side)]++
		return
	}
	s.teach.set, s.teach.t = true, *e.Teach
}
