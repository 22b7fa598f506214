package sensors_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sets"
)

// A button tapped between two scans (a tap shorter than the time between
// them: a short tap, or a scan loop starved by a busy machine) is seen
// exactly once: the expander's interrupt-on-change latches the press until
// it is read (INTF, INTCAP), and the scanner holds it pressed until its
// debounce has taken it, then reads the release. Its press is stamped as a
// change first read by the scan that read the latch; the consumer of
// Readings sees one press (a rising edge) and one release.
func TestButtonTapBetweenScansSeenOnce(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name string
		// gap is the time between the two scans, tapAt and hold when the
		// button is pressed after the first and how long.
		gap, tapAt, hold time.Duration
		// pressAt is when the press is stamped, from the first scan.
		pressAt time.Duration
	}{
		// On time: first read by the scan at +5 ms, 30 ms of debounce.
		{"a 3 ms tap between scans 5 ms apart", 5 * ms, 1 * ms, 3 * ms, 35 * ms},
		// The tests' 150 ms tap (cmd/tridboard's tapMS) while the loop
		// was starved for 400 ms: credited half the debounce, as a late
		// scan credits a cell's change (first read at +385 ms).
		{"a 150 ms tap while the scan loop is starved for 400 ms", 400 * ms, 120 * ms, 150 * ms, 415 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := sets.NewReference("clock_white", "clock_black")
			r := newRig(t, b, nil)
			r.run(100 * ms)
			start := b.Clock.Now()
			b.Clock.Advance(tc.tapAt)
			r.do(b.Set.Press("button:clock_white"))
			b.Clock.Advance(tc.hold)
			r.do(b.Set.Release("button:clock_white"))
			if b.Set.Reading().Has(rules.Cell(len(b.Set.System().Cells()))) {
				t.Fatal("the button still reads pressed")
			}
			var got []string
			var pressed uint64
			for i := range 60 {
				d := 5 * ms
				if i == 0 {
					d = tc.gap - tc.tapAt - tc.hold
				}
				b.Clock.Advance(d)
				r.sc.Scan(b.Clock.Now())
				r.sc.Readings(func(at time.Time, _, _ rules.CellSet, buttons uint64, _ time.Duration) {
					if on := buttons &^ pressed; on != 0 {
						got = append(got, fmt.Sprintf("+%v pressed %b", at.Sub(start), on))
					}
					if off := pressed &^ buttons; off != 0 {
						got = append(got, fmt.Sprintf("released %b", off))
					}
					pressed = buttons
				})
			}
			want := []string{fmt.Sprintf("+%v pressed 1", tc.pressAt), "released 1"}
			if !slices.Equal(got, want) {
				t.Errorf("readings %q, want %q", got, want)
			}
		})
	}
}

// A button held across scans is read as before: one press, stamped when
// it stood the debounce, one release; the latch adds nothing.
func TestButtonHeldSeenOnce(t *testing.T) {
	const ms = time.Millisecond
	b := sets.NewReference("clock_white", "clock_black")
	r := newRig(t, b, nil)
	r.run(100 * ms)
	r.do(b.Set.Press("button:clock_black"))
	got := r.run(200 * ms)
	r.do(b.Set.Release("button:clock_black"))
	got = append(got, r.run(100*ms)...)
	want := []string{"35ms button:clock_black open -> closed", "35ms button:clock_black closed -> open"}
	if !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}
