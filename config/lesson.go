package config

import "fmt"

// Lesson configures lessons: the teacher's settings a game has until a
// teach command changes them (docs/mqtt.md, "A lesson's settings").
type Lesson struct {
	// Hints is each side's number of hints a game: 0 none, -1 no limit.
	Hints LessonHints `yaml:"hints"`
	// Assist is each side's assistance in a game whose new_game gives
	// none: full (targets, hints, explanations), explain (explanations
	// only) or none.
	Assist LessonAssist `yaml:"assist"`
	// Lock starts the set with the teacher's lock on.
	Lock bool `yaml:"lock"`
}

// LessonHints is each side's hint limit.
type LessonHints struct {
	White int `yaml:"white"`
	Black int `yaml:"black"`
}

// LessonAssist is each side's assistance.
type LessonAssist struct {
	White string `yaml:"white"`
	Black string `yaml:"black"`
}

// DefaultLesson: three hints a side, full assistance, no lock.
func DefaultLesson() Lesson {
	return Lesson{Hints: LessonHints{3, 3}, Assist: LessonAssist{"full", "full"}}
}

// checkLesson validates the lesson section.
func (c *Config) checkLesson() []keyError {
	var errs []keyError
	l := &c.Lesson
	for _, h := range []struct {
		key string
		n   int
	}{{"lesson.hints.white", l.Hints.White}, {"lesson.hints.black", l.Hints.Black}} {
		if h.n < -1 || h.n > 1000 {
			errs = append(errs, keyError{h.key, fmt.Sprintf("%d: want -1 (no limit) to 1000", h.n)})
		}
	}
	for _, a := range []struct{ key, v string }{{"lesson.assist.white", l.Assist.White}, {"lesson.assist.black", l.Assist.Black}} {
		switch a.v {
		case "full", "explain", "none":
		default:
			errs = append(errs, keyError{a.key, fmt.Sprintf("%q: want full, explain or none", a.v)})
		}
	}
	return errs
}
