package clock

import (
	"fmt"
	"strings"
	"time"
)

// FormatClk writes a remaining time as a game record's [%clk] comment
// takes it: h:mm:ss, truncated to the second, and with tenths under a
// minute (0:00:42.3), where a blitz game is decided and whole seconds
// would hide up to a second per move. Parsers of the comment (python-chess,
// chess.com's own records) read the fraction. A negative d writes as 0.
func FormatClk(d time.Duration) string {
	d = max(0, d)
	h := d / time.Hour
	m := d % time.Hour / time.Minute
	s := d % time.Minute / time.Second
	if d < time.Minute {
		return fmt.Sprintf("0:00:%02d.%d", s, d%time.Second/(100*time.Millisecond))
	}
	return fmt.Sprintf("%d:%02d:%02d", h, m, s)
}

// ClkComment is the comment for a move's record: "[%clk 0:02:58]".
func ClkComment(d time.Duration) string { return "[%clk " + FormatClk(d) + "]" }

// ParseClk reads h:mm:ss with an optional fraction of up to three digits
// (0:02:58, 1:05:00, 0:00:42.3, 0:00:07.125).
func ParseClk(s string) (time.Duration, error) {
	fail := func(why string) (time.Duration, error) {
		return 0, fmt.Errorf("clock: clk %q: %s", s, why)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return fail("want h:mm:ss")
	}
	secs, frac, hasFrac := strings.Cut(parts[2], ".")
	h, err := number(parts[0], "hours", 0, 999)
	if err != nil {
		return fail(err.Error())
	}
	if len(parts[1]) != 2 || len(secs) != 2 {
		return fail("want two digits of minutes and of seconds")
	}
	m, err := number(parts[1], "minutes", 0, 59)
	if err != nil {
		return fail(err.Error())
	}
	sec, err := number(secs, "seconds", 0, 59)
	if err != nil {
		return fail(err.Error())
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	if hasFrac {
		if len(frac) < 1 || len(frac) > 3 {
			return fail("want 1 to 3 digits after the point")
		}
		f, err := number(frac, "fraction", 0, 999)
		if err != nil {
			return fail(err.Error())
		}
		for range 3 - len(frac) {
			f *= 10
		}
		d += time.Duration(f) * time.Millisecond
	}
	return d, nil
}

// FindClk finds a [%clk ...] command in a move's comment text and reads it;
// false when there is none.
func FindClk(comment string) (time.Duration, bool, error) {
	const tag = "[%clk"
	i := strings.Index(comment, tag)
	if i < 0 {
		return 0, false, nil
	}
	rest := comment[i+len(tag):]
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return 0, true, fmt.Errorf("clock: clk command %q not closed with ']'", comment[i:])
	}
	d, err := ParseClk(strings.TrimSpace(rest[:j]))
	return d, true, err
}
