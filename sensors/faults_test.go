package sensors_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// health is the comparable part of a sensors.Health.
type health struct {
	OK              bool
	Failures        uint64
	Consecutive     int
	Configs, Resets uint64
	LastErr         string
	RetryIn         time.Duration
}

func (r *rig) health(i int) health {
	h := r.sc.Health(nil)[i]
	out := health{OK: h.OK, Failures: h.Failures, Consecutive: h.Consecutive, Configs: h.Configs, Resets: h.Resets}
	if h.LastErr != nil {
		out.LastErr = h.LastErr.Error()
	}
	if !h.Retry.IsZero() {
		out.RetryIn = h.Retry.Sub(r.board.Clock.Now())
	}
	return out
}

// summary condenses events: "open -> unknown x16".
func summary(ev []string) string {
	counts := map[string]int{}
	var order []string
	for _, e := range ev {
		f := strings.Fields(e)
		k := strings.Join(f[len(f)-3:], " ")
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var out []string
	for _, k := range order {
		out = append(out, fmt.Sprintf("%s x%d", k, counts[k]))
	}
	return strings.Join(out, ", ")
}

func TestTransientFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		inject func(*sim.MCP23017)
		err    string
	}{
		{"nack", func(m *sim.MCP23017) { m.FailNext(1) },
			"sensors: expander 0x21: read GPIO: sim: mcp23017 0x21: no acknowledge"},
		{"short read", func(m *sim.MCP23017) { m.ShortReadNext(1) },
			"sensors: expander 0x21: read GPIO: sim: mcp23017 0x21: short read: 1 of 2 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, sets.NewReference(), nil)
			r.run(40 * ms)
			tc.inject(r.board.Expander(0x21))
			// The failure makes N unknown at once; the rest keeps scanning.
			if got := summary(r.step(5 * ms)); got != "open -> unknown x16" {
				t.Fatalf("failing scan: %s", got)
			}
			if got, want := r.health(1), (health{Failures: 1, Consecutive: 1, Configs: 1, LastErr: tc.err, RetryIn: 10 * ms}); got != want {
				t.Fatalf("health %+v\nwant   %+v", got, want)
			}
			snap := r.sc.Snapshot()
			if snap.Unknown.Len() != 16 || closedNames(snap) != startNames() {
				t.Fatalf("unknown %d closed %s", snap.Unknown.Len(), closedNames(snap))
			}
			r.do(r.board.Set.Lift("a1W")) // W keeps working
			// Retried after 10 ms (configured again), known 30 ms later.
			got := r.run(45 * ms)
			want := []string{"35ms a1W closed -> open"}
			if len(got) != 17 || got[0] != want[0] || summary(got[1:]) != "unknown -> open x16" || !strings.HasPrefix(got[1], "40ms ") {
				t.Fatalf("recovery: %v", got)
			}
			if got, want := r.health(1), (health{OK: true, Failures: 1, Configs: 2, LastErr: tc.err}); got != want {
				t.Fatalf("health after recovery %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestVanishAndReturn(t *testing.T) {
	r := newRig(t, sets.NewReference(), nil)
	r.run(40 * ms)
	m := r.board.Expander(0x24)
	m.Vanish()
	// 0x24 holds QL4..QL6: QL6's presence and 4 pieces are closed.
	if got := summary(r.step(ms)); got != "open -> unknown x10, closed -> unknown x5" {
		t.Fatalf("vanish: %s", got)
	}
	// Backoff doubles from 10 ms up to 1 s; each retry starts with the
	// configuration, which fails.
	var retries []time.Duration
	for i := 0; i < 10; i++ {
		h := r.health(4) // 0x24 is the fifth expander
		retries = append(retries, h.RetryIn)
		r.step(h.RetryIn)
	}
	want := []time.Duration{10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, time.Second, time.Second, time.Second}
	if !reflect.DeepEqual(retries, want) {
		t.Fatalf("backoff %v, want %v", retries, want)
	}
	if got, want := r.health(4), (health{Failures: 11, Consecutive: 11, Configs: 1, RetryIn: time.Second,
		LastErr: "sensors: expander 0x24: write IOCON: sim: mcp23017 0x24: no acknowledge (chip gone)"}); got != want {
		t.Fatalf("health %+v\nwant   %+v", got, want)
	}
	// It comes back in its power-on state: configured again before its
	// readings count.
	m.Return()
	if m.GPPU() != 0 {
		t.Fatal("not at power-on")
	}
	r.step(time.Second)
	if m.GPPU() != 0xFFFF || m.IODIR() != 0xFFFF || m.IOCON() != 0 {
		t.Fatalf("not configured again: GPPU %#x", m.GPPU())
	}
	if got := summary(r.run(30 * ms)); got != "unknown -> open x10, unknown -> closed x5" {
		t.Fatalf("back: %s", got)
	}
	if h := r.health(4); !h.OK || h.Configs != 2 || h.Consecutive != 0 {
		t.Fatalf("health %+v", h)
	}
}

func TestSilentReset(t *testing.T) {
	t.Run("inputs float low", func(t *testing.T) {
		// A brown-out between two scans: no transaction fails, the pull-ups
		// are gone and the open switches of N read closed. The change is
		// checked before it counts: no phantom piece, N is set up again.
		r := newRig(t, sets.NewReference(), nil)
		r.run(40 * ms)
		r.board.Expander(0x21).PowerCycle()
		got := r.run(70 * ms)
		if len(got) != 32 || !strings.HasPrefix(got[0], "35ms ") || summary(got[:16]) != "open -> unknown x16" ||
			!strings.HasPrefix(got[16], "70ms ") || summary(got[16:]) != "unknown -> open x16" {
			t.Fatalf("events %v", got)
		}
		if h := r.health(1); h != (health{OK: true, Configs: 2, Resets: 1}) {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("inputs float high", func(t *testing.T) {
		// Nothing changes: the periodic check (every second) finds it.
		r := newRig(t, sets.NewReference(), nil)
		r.run(40 * ms)
		m := r.board.Expander(0x22)
		m.Floating = 0xFFFF
		r.do(r.board.Set.Lift("a7B")) // and it keeps reading the closed switches
		r.run(40 * ms)
		m.PowerCycle()
		got := r.run(time.Second)
		if len(got) != 32 || !strings.HasPrefix(got[0], "935ms ") || summary(got) != "open -> unknown x9, closed -> unknown x7, unknown -> open x9, unknown -> closed x7" {
			t.Fatalf("events %v", got)
		}
		if h := r.health(2); h != (health{OK: true, Configs: 2, Resets: 1}) {
			t.Fatalf("health %+v", h)
		}
	})
}

func TestMuxFaults(t *testing.T) {
	r := newRig(t, sets.NewMatrix(true), nil)
	r.run(40 * ms)
	mux := r.board.Muxes[0x70]
	// The mux resets (no channel on): 0x20 NACKs, the scanner forgets the
	// channel, 0x21 selects it again in the same scan.
	mux.PowerCycle()
	if got := summary(r.step(5 * ms)); got != "closed -> unknown x20, open -> unknown x44" {
		t.Fatalf("mux reset: %s", got)
	}
	if got := r.health(0).LastErr; got != "sensors: expander 0x20 (mux 0x70 channel 3): scan row 0: sim: sim: address 0x20: no acknowledge" {
		t.Fatalf("error %q", got)
	}
	if h := r.health(1); !h.OK || h.Failures != 0 {
		t.Fatalf("0x21 %+v", h)
	}
	if mux.Channels() != 1<<3 {
		t.Fatalf("channels %#x", mux.Channels())
	}
	// The mux vanishes: selecting fails.
	got := r.run(40 * ms)
	if summary(got) != "unknown -> closed x20, unknown -> open x44" {
		t.Fatalf("recovery %s", summary(got))
	}
	mux.Vanish()
	r.step(5 * ms)
	r.step(5 * ms)
	if got := r.health(1).LastErr; got != "sensors: expander 0x21 (mux 0x70 channel 3): scan row 0: select channel: sim: pca9548 0x70: no acknowledge (chip gone)" {
		t.Fatalf("error %q", got)
	}
	if r.sc.Snapshot().Unknown.Len() != 108 {
		t.Fatalf("unknown %d", r.sc.Snapshot().Unknown.Len())
	}
	mux.Return()
	r.run(100 * ms)
	if s := r.sc.Snapshot(); !s.Unknown.Empty() || closedNames(s) != startNames() {
		t.Fatalf("after the mux returned: unknown %d", s.Unknown.Len())
	}
}

func TestConfigReadBack(t *testing.T) {
	// A chip that takes writes but reads back something else (here: a
	// short read of the read-back) is not trusted.
	r := newRig(t, sets.NewReference(), nil)
	m := r.board.Expander(0x20)
	m.ShortReadNext(1)
	r.step(0)
	if got := r.health(0).LastErr; got != "sensors: expander 0x20: read back configuration: sim: mcp23017 0x20: short read: 7 of 14 bytes" {
		t.Fatalf("error %q", got)
	}
}

func TestSkipsUnusedMatrixRows(t *testing.T) {
	// 0x21 of the matrix wiring has 44 cells: rows 0..5 only.
	r := newRig(t, sets.NewMatrix(false), nil)
	r.run(40 * ms)
	before := r.board.Expander(0x21).Transactions()
	r.step(5 * ms)
	if got := r.board.Expander(0x21).Transactions() - before; got != 6 {
		t.Fatalf("0x21: %d transactions per scan, want 6", got)
	}
}
