package clock

import (
	"strings"
	"testing"
	"time"
)

func TestFormatClk(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0:00:00.0"},
		{-time.Second, "0:00:00.0"},
		{42*s + 399*ms, "0:00:42.3"},
		{59*s + 999*ms, "0:00:59.9"},
		{time.Minute, "0:01:00"},
		{2*time.Minute + 58*s + 900*ms, "0:02:58"},
		{time.Hour + 5*time.Minute, "1:05:00"},
		{12*time.Hour + 34*time.Minute + 56*s, "12:34:56"},
	} {
		if got := FormatClk(tc.d); got != tc.want {
			t.Errorf("FormatClk(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := ClkComment(178 * s); got != "[%clk 0:02:58]" {
		t.Errorf("ClkComment = %q", got)
	}
}

func TestParseClk(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"0:02:58", 178 * s}, {"1:05:00", time.Hour + 5*time.Minute}, {"0:00:42.3", 42*s + 300*ms},
		{"0:00:07.125", 7*s + 125*ms}, {"0:00:07.12", 7*s + 120*ms}, {"100:00:00", 100 * time.Hour},
	} {
		if got, err := ParseClk(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseClk(%q) = %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "2:58", "0:2:58", "0:02:60", "0:60:00", "0:02:58.", "0:02:58.1234", "a:02:58", "0:02:5x", "-1:00:00"} {
		if _, err := ParseClk(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseClk(%q) = %v, want an error naming it", bad, err)
		}
	}
}

func TestFindClk(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  time.Duration
		found bool
		err   bool
	}{
		{"[%clk 0:02:58]", 178 * s, true, false},
		{"a fine move [%emt 0:00:03] [%clk 0:00:42.3] !", 42*s + 300*ms, true, false},
		{"no clock here", 0, false, false},
		{"[%clk 0:02:58", 0, true, true},
		{"[%clk soon]", 0, true, true},
	} {
		d, found, err := FindClk(tc.in)
		if d != tc.want || found != tc.found || (err != nil) != tc.err {
			t.Errorf("FindClk(%q) = %v %v %v", tc.in, d, found, err)
		}
	}
}

// What FormatClk writes, ParseClk reads back to the precision written.
func FuzzClk(f *testing.F) {
	for _, d := range []int64{0, 42300, 178000, 3900000, 359999999} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, msecs int64) {
		if msecs < 0 || msecs > 999*3600*1000 {
			return
		}
		d := time.Duration(msecs) * time.Millisecond
		back, err := ParseClk(FormatClk(d))
		if err != nil {
			t.Fatalf("%v: %q: %v", d, FormatClk(d), err)
		}
		prec := time.Second
		if d < time.Minute {
			prec = 100 * time.Millisecond
		}
		if back != d.Truncate(prec) {
			t.Fatalf("%v written %q read %v", d, FormatClk(d), back)
		}
	})
}
