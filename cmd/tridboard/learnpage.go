package main

// Learning the set's wiring from the setup page (/setup/wiring) inside the
// running daemon: the table is paused and hands the bus and the LEDs to
// bringup.Learn, as `tridboard wiring learn` has them with the daemon
// stopped; a wiring saved goes to <state_dir>/setup.yaml, and the daemon
// restarts in place with it (daemon.restart, serve).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tridboard/tridboard/bringup"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
)

// learnPage is the setup page's learning session of d, or nil when the
// set cannot learn (no LEDs to light its cells with).
func (d *daemon) learnPage() *setup.Wiring {
	if d.ledw == nil || d.ledDriver == nil {
		return nil
	}
	return setup.NewWiring(setup.Learn{Check: d.learnCheck, Run: d.learnRun, Save: d.learnSave})
}

// learnCheck refuses learning while a game goes on, unless confirmed.
func (d *daemon) learnCheck(confirm bool) error {
	s := d.tb.Snapshot()
	if confirm || len(s.Moves) == 0 || s.Result != rules.NoResult {
		return nil
	}
	return fmt.Errorf("%w: game %s, %d moves played, no result yet (it is kept, its clock paused)", setup.ErrGameInProgress, s.Game, len(s.Moves))
}

// ledFrames is a leds.Driver that shows each frame through the daemon's
// LED writer and returns once it is written: the lamp and the table's LED
// output never write at once, and the cell is lit when Show returns.
type ledFrames struct {
	w *leds.Writer
	n int
}

func (f ledFrames) String() string             { return "the daemon's LEDs" }
func (f ledFrames) NumLEDs() int               { return f.n }
func (f ledFrames) Write(fr *leds.Frame) error { f.w.ShowFrame(fr); f.w.Sync(); return nil }
func (f ledFrames) Halt() error                { return nil }

var _ leds.Driver = ledFrames{}

// learnRun pauses the table (its clock first), learns the wiring of the
// game's system with the LEDs, and resumes the table.
func (d *daemon) learnRun(ctx context.Context, p *setup.Progress) (setup.Result, error) {
	snap := d.tb.Snapshot()
	sys := snap.System
	if snap.Clock != nil && snap.Clock.Running != "" && !snap.Clock.Paused {
		// The players are not playing while the set is emptied.
		if _, err := d.tb.Do(ctx, table.AdjustClock{Action: table.ClockPause}); err != nil {
			d.log.Warn("learning the wiring: the clock was not paused", "err", err)
		}
	}
	if err := d.tb.Pause(ctx); err != nil {
		return setup.Result{}, fmt.Errorf("the table did not pause: %w", err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.tb.Resume(rctx); err != nil {
			d.log.Error("the table did not resume after learning the wiring", "err", err)
		}
	}()
	d.log.Info("learning the wiring from the setup page", "system", sys.Name())
	cells := sys.Cells()
	_, layout, err := d.o.cfg.LEDMapping(cells)
	if err != nil {
		return setup.Result{}, err
	}
	lamp := bringup.NewLamp(ledFrames{d.ledw, d.ledDriver.NumLEDs()}, layout, cells)
	stays := bringup.Sockets(sys)
	words := map[string]string{}
	if g, err := systems.GeometryOf(sys); err == nil {
		for _, c := range g.Cells {
			words[c.Name] = c.Words
		}
	}
	o := bringup.DefaultLearnOpts()
	o.Bus, o.Expanders, o.Cells, o.Ctx = d.bus, d.wiring.Expanders, bringup.LearnOrder(sys), ctx
	o.Stays = func(c string) bool { return stays[c] }
	o.Show = func(cell, pass string) {
		lamp.Light(cell)
		where := words[cell] // "b2 White", "a1 attack board QL1"
		if stays[cell] {
			if where == "" {
				where = cell
			}
			where = "the pin of " + where // "the pin of attack board QL1"
		}
		p.Lit(cell, where, pass, stays[cell])
		if d.learnShown != nil {
			d.learnShown(cell, pass)
		}
	}
	o.Found = func(f bringup.Finding) { p.Found(setup.Finding{Problem: f.Problem, Text: f.Text}) }
	p.Begin(2 * len(o.Cells))
	if d.board != nil {
		// The simulated builder takes every piece off, then follows the
		// LEDs on the simulated set's clock (as wiring learn --sim).
		d.board.Set.SetUp(rules.CellSet{})
		index := make([]int, len(cells))
		for i := range cells {
			index[i] = layout.LED(rules.Cell(i))
		}
		u := sim.NewBuilder(d.board, index, stays)
		o.Now, o.Wait = d.board.Clock.Now, u.Wait
		// The builder runs the set's clock ahead of the real time the
		// daemon follows (followReal), which would stand still until the
		// real time caught up: put it back before the table resumes.
		defer func() {
			if real := time.Now(); d.board.Clock.Now().After(real) {
				d.board.Clock.Set(real)
			}
		}()
	}
	w, findings, err := bringup.Learn(o)
	if err != nil {
		return setup.Result{}, err
	}
	if lamp.Errors > 0 {
		d.log.Warn("learning the wiring: LED writes failed", "n", lamp.Errors)
	}
	r := setup.Result{Wiring: w}
	for _, e := range w.Expanders {
		r.Learned += len(e.Cells)
	}
	for _, f := range findings {
		if f.Problem {
			r.Problems++
		} else {
			p.Found(setup.Finding{Text: f.Text}) // the note at the end ("64 cells learned and checked")
		}
	}
	text, err := wiringYAML(w, sys.Name())
	if err != nil {
		return setup.Result{}, err
	}
	r.Text = string(text)
	d.log.Info("learned the wiring", "cells", r.Learned, "problems", r.Problems)
	return r, nil
}

// learnSave writes the learned wiring (with the configured buttons, which
// are not learned) into <state_dir>/setup.yaml, once the configuration
// takes it for the game's cells, and has the daemon restart with it.
func (d *daemon) learnSave(r setup.Result) (string, error) {
	w, ok := r.Wiring.(*sensors.Wiring)
	if !ok || w == nil {
		return "", errors.New("no wiring learned")
	}
	w = withButtons(w, d.wiring)
	cfg := *d.o.cfg
	cfg.Sensors.Wiring, cfg.Sensors.Preset = w, ""
	cells := d.tb.Snapshot().System.Cells()
	if _, err := cfg.Wiring(cells); err != nil {
		return "", fmt.Errorf("not saved, the set could not start with it: %s; learn again once the findings are fixed",
			strings.TrimPrefix(err.Error(), "config: "))
	}
	if err := config.UpdateSetup(d.o.cfg.StateDir, func(s *config.Setup) error { s.Wiring = w; return nil }); err != nil {
		return "", err
	}
	d.log.Info("the learned wiring is saved: restarting with it", "file", d.o.cfg.StateDir+"/"+config.SetupName)
	d.restart()
	return "saved: the set restarts with the new wiring (a few seconds)", nil
}

// withButtons is w with the button wires of old on the same expanders.
func withButtons(w, old *sensors.Wiring) *sensors.Wiring {
	out := w.Clone()
	same := func(a, b *sensors.Expander) bool {
		return a.Address == b.Address && (a.Mux == nil) == (b.Mux == nil) && (a.Mux == nil || *a.Mux == *b.Mux)
	}
	for _, oe := range old.Expanders {
		var buttons []sensors.Wire
		for _, c := range oe.Cells {
			if strings.HasPrefix(c.Cell, sensors.ButtonPrefix) {
				buttons = append(buttons, c)
			}
		}
		if len(buttons) == 0 {
			continue
		}
		i := 0
		for i < len(out.Expanders) && !same(&out.Expanders[i], &oe) {
			i++
		}
		if i == len(out.Expanders) {
			out.Expanders = append(out.Expanders, sensors.Expander{Address: oe.Address, Mux: oe.Mux, Mode: oe.Mode})
		}
		out.Expanders[i].Cells = append(out.Expanders[i].Cells, buttons...)
	}
	return out
}

// scrambledSet is the simulated set of sys (the set sys is played on, as
// with no wiring configured) with its switches soldered to random pins
// drawn from seed: run --sim --scramble, a wiring to learn.
func scrambledSet(sys rules.System, seed uint64) (*sim.Board, error) {
	def := config.Default()
	def.Variant = sys.Name()
	w, err := def.Wiring(sys.Cells())
	if err != nil {
		return nil, err
	}
	return sim.ForSystem(sys, sim.Scramble(w, seed))
}
