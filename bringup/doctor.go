package bringup

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
)

// Finding is one line of a check: a problem (Problem true) with what to
// do, or what was found fine.
type Finding struct {
	Problem bool
	Text    string
}

func (f Finding) String() string {
	if f.Problem {
		return "problem: " + f.Text
	}
	return "ok: " + f.Text
}

// DoctorOpts is what Doctor checks.
type DoctorOpts struct {
	Bus    i2c.Bus
	Wiring *sensors.Wiring
	// Cells are the game system's cells; Expected the cells that should
	// read closed (the start position's occupancy, or none for an empty
	// set).
	Cells    []string
	Expected rules.CellSet
	// Devices are the other configured chips by address and what they are
	// ("LED driver", "clock display"): they must answer too.
	Devices map[uint16]string
	// Speed is the configured bus clock; Fallback the slower one tried when
	// chips fail at Speed (100 kHz by default).
	Speed, Fallback physic.Frequency
	// Now and Wait are the clock: Wait lets time pass (the simulated
	// set's clock, or time.Sleep).
	Now  func() time.Time
	Wait func(time.Duration)
}

// DefaultDoctorOpts checks at 400 kHz, falling back to 100 kHz.
func DefaultDoctorOpts() DoctorOpts {
	return DoctorOpts{Speed: 400 * physic.KiloHertz, Fallback: 100 * physic.KiloHertz,
		Now: time.Now, Wait: time.Sleep, Devices: map[uint16]string{}}
}

// speeder is a bus whose clock can be set (periph's i2c.Bus has SetSpeed).
type speeder interface {
	SetSpeed(f physic.Frequency) error
}

// Doctor checks the set and returns its findings, problems first. The set
// is well when no finding is a problem.
func Doctor(o DoctorOpts) []Finding {
	var out []Finding
	ok := func(format string, a ...any) { out = append(out, Finding{false, fmt.Sprintf(format, a...)}) }
	bad := func(format string, a ...any) { out = append(out, Finding{true, fmt.Sprintf(format, a...)}) }

	missing := probeAll(o)
	if len(missing) > 0 && o.Fallback > 0 && o.Fallback < o.Speed {
		if sp, isSp := o.Bus.(speeder); isSp && sp.SetSpeed(o.Fallback) == nil {
			if still := probeAll(o); len(still) < len(missing) {
				bad("the bus fails at %s but works at %s: shorten the wires, add stronger pull-ups (2.2 kΩ), or set i2c.speed_hz: %d and dtparam=i2c_arm_baudrate=%d",
					o.Speed, o.Fallback, int64(o.Fallback/physic.Hertz), int64(o.Fallback/physic.Hertz))
				missing = still
			} else {
				sp.SetSpeed(o.Speed)
			}
		}
	}
	configured := map[uint16]bool{}
	for _, e := range o.Wiring.Expanders {
		configured[e.Address] = true
		if e.Mux != nil {
			configured[e.Mux.Address] = true
		}
	}
	for a := range o.Devices {
		configured[a] = true
	}
	answering := 0
	for _, c := range chips(o) {
		if m, ok := missing[c.key]; ok {
			bad("%s does not answer (%v): check its power, its SDA/SCL wires and its address jumpers (A0-A2) against the configuration", c.what, m)
			continue
		}
		answering++
	}
	if answering > 0 {
		ok("%d of %d configured chips answer", answering, len(chips(o)))
	}
	for _, a := range strays(o, configured) {
		bad("0x%02x answers but is not configured: an expander with its address jumpers set wrong, or a chip the configuration does not name", a)
	}

	// The switches, read through the scanner as the daemon reads them.
	sopts := sensors.DefaultOpts()
	sopts.Cells = o.Cells
	sc, err := sensors.New(o.Bus, o.Wiring, &sopts)
	if err != nil {
		bad("the wiring: %v", err)
		return sortFindings(out)
	}
	for t := time.Duration(0); t <= sopts.Debounce+4*sopts.Period; t += sopts.Period {
		sc.Scan(o.Now())
		o.Wait(sopts.Period)
	}
	snap := sc.Snapshot()
	shorted := map[string]bool{}
	for _, e := range o.Wiring.Expanders {
		for _, s := range shorts(e, o.Cells, snap.Closed, o.Expected) {
			bad("%s", s.text)
			for _, c := range s.cells {
				shorted[c] = true
			}
		}
	}
	var extra, absent []string
	for i, name := range o.Cells {
		c := rules.Cell(i)
		if snap.Unknown.Has(c) || shorted[name] {
			continue
		}
		switch closed, want := snap.Closed.Has(c), o.Expected.Has(c); {
		case closed && !want:
			extra = append(extra, name)
		case !closed && want:
			absent = append(absent, name)
		}
	}
	if len(extra) > 0 {
		bad("%s closed where the position has no piece: a stuck reed switch (tap it, or check the wire for a short) or a piece left there", list(extra))
	}
	if len(absent) > 0 {
		bad("%s open where the position has a piece: the piece is missing, its magnet too weak or too far, or the switch is not wired where the configuration says (tridboard wiring learn)", list(absent))
	}
	for i, b := range sc.Buttons() {
		if snap.Buttons&(1<<i) != 0 {
			bad("%s reads pressed: a stuck button or a short on its wire", strings.TrimPrefix(b, sensors.ButtonPrefix))
		}
	}
	if n := snap.Unknown.Len(); n > 0 {
		bad("%d cells cannot be read (their expanders fail)", n)
	} else if len(extra)+len(absent) == 0 && len(shorted) == 0 {
		ok("all %d switches read as the position stands", len(o.Cells))
	}
	return sortFindings(out)
}

func sortFindings(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Problem && !fs[j].Problem })
	return fs
}

// list names up to 12 cells, then how many more.
func list(cells []string) string {
	if len(cells) > 12 {
		return strings.Join(cells[:12], ", ") + fmt.Sprintf(" and %d more", len(cells)-12)
	}
	return strings.Join(cells, ", ")
}

type chip struct {
	key  string // "0x21" or "0x20@0x70/3"
	what string
	addr uint16
	mux  *sensors.MuxPort
}

// chips lists the configured chips: multiplexers, expanders, devices.
func chips(o DoctorOpts) []chip {
	var cs []chip
	seen := map[string]bool{}
	for _, e := range o.Wiring.Expanders {
		if e.Mux != nil {
			k := fmt.Sprintf("0x%02x", e.Mux.Address)
			if !seen[k] {
				seen[k] = true
				cs = append(cs, chip{key: k, what: "multiplexer " + k + " (PCA9548)", addr: e.Mux.Address})
			}
		}
		k := e.Name()
		if !seen[k] {
			seen[k] = true
			cs = append(cs, chip{key: k, what: "expander " + k + " (MCP23017)", addr: e.Address, mux: e.Mux})
		}
	}
	addrs := make([]int, 0, len(o.Devices))
	for a := range o.Devices {
		addrs = append(addrs, int(a))
	}
	sort.Ints(addrs)
	for _, a := range addrs {
		k := fmt.Sprintf("0x%02x", a)
		if !seen[k] {
			seen[k] = true
			cs = append(cs, chip{key: k, what: o.Devices[uint16(a)] + " " + k, addr: uint16(a)})
		}
	}
	return cs
}

// probeAll returns the configured chips that do not answer, with why.
func probeAll(o DoctorOpts) map[string]error {
	missing := map[string]error{}
	for _, c := range chips(o) {
		if c.mux != nil {
			if _, bad := missing[fmt.Sprintf("0x%02x", c.mux.Address)]; bad {
				missing[c.key] = fmt.Errorf("behind multiplexer 0x%02x, which does not answer", c.mux.Address)
				continue
			}
			if err := o.Bus.Tx(c.mux.Address, []byte{1 << c.mux.Channel}, nil); err != nil {
				missing[c.key] = err
				continue
			}
		}
		if err := probe(o.Bus, c.addr); err != nil {
			missing[c.key] = err
		}
	}
	// Leave every multiplexer with no channel selected.
	for _, c := range chips(o) {
		if strings.HasPrefix(c.what, "multiplexer") {
			o.Bus.Tx(c.addr, []byte{0}, nil)
		}
	}
	return missing
}

// probe reads one byte from addr: a chip there acknowledges.
func probe(bus i2c.Bus, addr uint16) error {
	var b [1]byte
	return bus.Tx(addr, nil, b[:])
}

// strays are the addresses on the main bus that answer but are not
// configured (0x08..0x77, the range of 7-bit addresses devices use).
func strays(o DoctorOpts, configured map[uint16]bool) []uint16 {
	var out []uint16
	for a := uint16(0x08); a <= 0x77; a++ {
		if configured[a] {
			continue
		}
		if probe(o.Bus, a) == nil {
			out = append(out, a)
		}
	}
	return out
}

type short struct {
	text  string
	cells []string
}

// shorts finds, on one expander, all its switches reading closed where the
// position has not all of them (a short to ground or pull-ups off), and in
// a matrix a row or a column reading all closed.
func shorts(e sensors.Expander, cells []string, closed, expected rules.CellSet) []short {
	index := map[string]rules.Cell{}
	for i, c := range cells {
		index[c] = rules.Cell(i)
	}
	group := func(ws []sensors.Wire) (names []string, all, wanted bool) {
		all, wanted = len(ws) >= 3, true
		for _, w := range ws {
			c, ok := index[w.Cell]
			if !ok {
				continue
			}
			names = append(names, w.Cell)
			if !closed.Has(c) {
				all = false
			}
			if !expected.Has(c) {
				wanted = false
			}
		}
		return names, all && len(names) >= 3, wanted
	}
	var out []short
	if names, all, wanted := group(e.Cells); all && !wanted {
		what := "all its inputs read closed: a short to ground, or its pull-ups are off"
		if e.Mode == sensors.Matrix {
			what = "every switch of its matrix reads closed: a column shorted to ground, or a row line stuck low"
		}
		return append(out, short{fmt.Sprintf("expander %s: %s", e.Name(), what), names})
	}
	if e.Mode != sensors.Matrix {
		return nil
	}
	// The switches of row or column i of the matrix.
	line := func(i int, of func(sensors.Wire) int) []sensors.Wire {
		var ws []sensors.Wire
		for _, w := range e.Cells {
			if of(w) == i {
				ws = append(ws, w)
			}
		}
		return ws
	}
	for r := 0; r < 8; r++ {
		if names, all, wanted := group(line(r, func(w sensors.Wire) int { return w.Row })); all && !wanted {
			out = append(out, short{fmt.Sprintf("expander %s: row %d (GPA%d) reads all closed: a short between the row and a column, or a diode in backwards", e.Name(), r, r), names})
		}
	}
	for c := 0; c < 8; c++ {
		if names, all, wanted := group(line(c, func(w sensors.Wire) int { return w.Col })); all && !wanted {
			out = append(out, short{fmt.Sprintf("expander %s: column %d (GPB%d) reads all closed: the column is shorted to ground", e.Name(), c, c), names})
		}
	}
	return out
}
