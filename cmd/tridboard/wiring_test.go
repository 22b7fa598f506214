package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// wiring learn on a simulated set soldered at random writes a sensors
// section that config check takes and that is the set's true wiring.
func TestWiringLearnSim(t *testing.T) {
	out := filepath.Join(t.TempDir(), "learned.yaml")
	var so, se bytes.Buffer
	if code := dispatch([]string{"wiring", "learn", "--sim", "--scramble", "42", "--out", out}, &so, &se); code != exitOK {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	if !strings.Contains(se.String(), "ok: 108 cells learned and checked") {
		t.Errorf("stderr: %s", se.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(out, data)
	if err != nil {
		t.Fatalf("config check of the learned wiring: %v\n%s", err, data)
	}
	got, err := cfg.Wiring(st3d.System.Cells())
	if err != nil {
		t.Fatal(err)
	}
	want := sim.Scramble(sets.ReferenceWiring(), 42)
	at := func(w *sensors.Wiring) map[string]string {
		m := map[string]string{}
		for _, e := range w.Expanders {
			for _, c := range e.Cells {
				m[c.Cell] = fmt.Sprintf("%s/%d", e.Name(), e.Slot(c))
			}
		}
		return m
	}
	if !reflect.DeepEqual(at(got), at(want)) {
		t.Error("the learned wiring is not the simulated set's")
	}
	if code := dispatch([]string{"wiring", "teach"}, &so, &se); code != exitUsage {
		t.Errorf("wiring teach: exit %d", code)
	}
}
