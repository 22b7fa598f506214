package main

// The setup page's name and rules system, applied: checked against the
// whole configuration as a start would read it, written to
// <state_dir>/setup.yaml (config.UpdateSetup), and the daemon restarted in
// place on the configuration read anew (serve): the game on the set is
// journaled and resumed, under the new name, in its own system.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/table"
)

// setupPage are the setup page's options for this daemon.
func (d *daemon) setupPage() setup.Opts {
	o := setupOpts(d.o.cfg.StateDir, d.o.cfg.MQTT.CommandToken)
	o.Current = d.setupCurrent
	o.SetUp = func() bool {
		// Set up: its name chosen on the page.
		s, err := config.ReadSetup(d.o.cfg.StateDir)
		return err == nil && s.BoardID != ""
	}
	if d.o.reread != nil {
		o.Save, o.Rotate = d.saveSetup, d.rotateToken
	}
	return o
}

// setupCurrent is the running set: its name, the rules of its new games,
// and the game on it.
func (d *daemon) setupCurrent() setup.Current {
	cfg := d.o.cfg
	c := setup.Current{Identity: setup.Identity{Name: cfg.BoardID, Variant: cfg.Variant, Options: cfg.Options}}
	if d.tb != nil {
		s := d.tb.Snapshot()
		c.Game, c.Moves = s.System.Name(), len(s.Moves)
		c.InProgress = c.Moves > 0 && s.Result == rules.NoResult
	}
	return c
}

// saveSetup keeps id in setup.yaml and restarts the daemon on it. It
// refuses, writing nothing, what a flag sets (flags win over the page),
// what the configuration would then refuse at the next start, and rules
// whose cells the set's wiring, as it runs, does not sense.
func (d *daemon) saveSetup(id setup.Identity) (string, error) {
	cur := d.o.cfg
	for _, k := range []struct {
		key     string
		changed bool
	}{{"board_id", id.Name != cur.BoardID}, {"variant", id.Variant != cur.Variant}, {"options", id.Options != cur.Options}} {
		if k.changed && slices.Contains(d.o.pinned, k.key) {
			return "", fmt.Errorf("the set was started with --%s, which wins over this page: take it off the command line", flagOf(k.key))
		}
	}
	c, err := d.o.reread()
	if err != nil {
		return "", fmt.Errorf("the configuration does not read: %s", oneLine(err))
	}
	c.BoardID, c.Variant, c.Options = id.Name, id.Variant, id.Options
	if err := checkLoaded(c, d.o.sim); err != nil {
		return "", fmt.Errorf("the set's configuration would refuse it: %s", oneLine(err))
	}
	if sys, err := systems.Lookup(id.Variant, id.Options); err == nil && !d.o.sim && d.tb != nil {
		// The set as it is wired now (a configuration naming no wiring
		// takes the rules' own set, which this one may not be).
		if err := d.tb.CanSense(sys); err != nil {
			return "", fmt.Errorf("this set's wiring does not sense those rules (%s): name its wiring first (wiring learn, or sensors: in the configuration)", oneLine(err))
		}
	}
	if err := config.UpdateSetup(cur.StateDir, func(s *config.Setup) error {
		s.BoardID, s.Variant, s.Options = id.Name, id.Variant, id.Options
		return nil
	}); err != nil {
		return "", err
	}
	d.log.Info("setup page: name and rules saved; restarting", "board", id.Name, "variant", id.Variant, "options", id.Options)
	d.freshGameOf(id)
	d.restart()
	msg := fmt.Sprintf("Saved. The set restarts as %s in a few seconds (its pages at http://%s.local:8080/ once it is on the venue's network)", id.Name, id.Name)
	if cur := d.setupCurrent(); cur.InProgress {
		msg += fmt.Sprintf("; the game in progress goes on (%s)", cur.Game)
	}
	return msg + "; new games follow the rules chosen.", nil
}

func flagOf(key string) string {
	if key == "board_id" {
		return "board-id"
	}
	return key
}

// pageRules are the rules the setup page chose for new games, which a
// resumed game of other rules does not take (table.Opts.NewGames); nil
// when the page chose none, or a flag names them.
func (d *daemon) pageRules() rules.System {
	s, err := config.ReadSetup(d.o.cfg.StateDir)
	if err != nil || s.Variant == "" || slices.Contains(d.o.pinned, "variant") || slices.Contains(d.o.pinned, "options") {
		return nil
	}
	sys, err := systems.Lookup(d.o.cfg.Variant, d.o.cfg.Options)
	if err != nil {
		return nil
	}
	return sys
}

// freshGameOf replaces a game not begun (no move, no result) of other
// rules by a new one of id's, so that a set named and given its rules at
// its first boot is ready for them; a game with moves is kept. A set that
// cannot start it (the simulated set is the old rules' own) keeps its
// game, the rules waiting for the next one.
func (d *daemon) freshGameOf(id setup.Identity) {
	sys, err := systems.Lookup(id.Variant, id.Options)
	if err != nil || d.tb == nil {
		return
	}
	s := d.tb.Snapshot()
	if len(s.Moves) > 0 || s.Result != rules.NoResult || s.System.Name() == sys.Name() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := d.tb.Do(ctx, table.NewGame{System: sys, DefaultClock: true, Tags: game.Tags{Site: id.Name}}); err != nil {
		d.log.Info("setup page: the game not begun stays; the rules chosen are for the next one", "err", err)
	}
}

// rotateToken makes a new command token, keeps it in setup.yaml (over
// the environment's and the file's) and restarts the daemon on it.
func (d *daemon) rotateToken() (string, error) {
	tok := setup.NewToken()
	if err := config.UpdateSetup(d.o.cfg.StateDir, func(s *config.Setup) error {
		s.CommandToken = tok
		return nil
	}); err != nil {
		return "", err
	}
	d.log.Info("setup page: a new command token; restarting")
	d.restart()
	return tok, nil
}

// reopen is the configuration a restart in place opens: read anew, or,
// if it now fails (the file edited meanwhile), the one running, which
// started.
func reopen(o daemonOpts) *config.Config {
	if o.reread == nil {
		return o.cfg
	}
	c, err := o.reread()
	if err == nil {
		err = checkLoaded(c, o.sim)
	}
	if err != nil {
		o.log.Error("restart: the configuration no longer reads; going on with the one running", "err", oneLine(err))
		return o.cfg
	}
	return c
}
