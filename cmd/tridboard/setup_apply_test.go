package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/setup"
)

// What the daemon does with the page's name and rules: a choice a flag
// overrides is refused and writes nothing; a good one is written to
// setup.yaml and restarts the daemon. (The set's own wiring: below.)
func TestSaveSetupChecksTheWholeConfiguration(t *testing.T) {
	for _, c := range []struct {
		name   string
		sim    bool
		pinned []string
		id     setup.Identity
		err    string // "" saved
	}{
		{"rename and options", false, nil, setup.Identity{Name: "club-7", Variant: "st3d", Options: "V.A1"}, ""},
		{"the simulated set is the system's own", true, nil, setup.Identity{Name: "unit", Variant: "millennium"}, ""},
		{"a flag names the set", false, []string{"board_id"}, setup.Identity{Name: "club-7", Variant: "st3d"}, "started with --board-id"},
		{"a flag names the rules", false, []string{"variant"}, setup.Identity{Name: "unit", Variant: "first-contact-up"}, "started with --variant"},
		{"a flag, left as it is", false, []string{"board_id"}, setup.Identity{Name: "unit", Variant: "first-contact-up"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			state := t.TempDir()
			read := func() (*config.Config, error) {
				cfg, err := config.Read("")
				if err != nil {
					return nil, err
				}
				cfg.StateDir, cfg.BoardID = state, "unit"
				return cfg, cfg.ApplySetup()
			}
			cfg, _ := read()
			d := &daemon{o: daemonOpts{cfg: cfg, sim: c.sim, reread: read, pinned: c.pinned},
				log: slog.New(slog.NewTextHandler(io.Discard, nil)), restarts: make(chan struct{})}
			msg, err := d.saveSetup(c.id)
			restarted := d.restarting()
			b, rerr := os.ReadFile(filepath.Join(state, config.SetupName))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err %v, want %q", err, c.err)
				}
				if rerr == nil || restarted {
					t.Errorf("refused, yet written (%q) or restarted (%v)", b, restarted)
				}
				return
			}
			if err != nil || !restarted || !strings.HasPrefix(msg, "Saved. The set restarts as "+c.id.Name) {
				t.Fatalf("%q, %v; restarted %v", msg, err, restarted)
			}
			s, err := config.ReadSetup(state)
			if err != nil || s.BoardID != c.id.Name || s.Variant != c.id.Variant || s.Options != c.id.Options {
				t.Errorf("setup.yaml %+v, %v", s, err)
			}
			// What the restart reads: the choice.
			if got := reopen(d.o); got.BoardID != c.id.Name || got.Variant != c.id.Variant || got.Options != c.id.Options {
				t.Errorf("reopened as %s %s %s", got.BoardID, got.Variant, got.Options)
			}
		})
	}
}

// Rules the set's wiring, as it runs, does not sense are refused, even
// where the configuration names no wiring (it would take the rules' own
// set, which this one is not); rules of the same switches are taken.
func TestSaveSetupNeedsTheWiringToSenseTheRules(t *testing.T) {
	state := t.TempDir()
	d, _, _ := startInProcess(t, func(c *config.Config) { c.StateDir = state })
	d.o.sim = false // the set as wired: the reference ST3D set
	d.o.reread = func() (*config.Config, error) {
		cfg, err := config.Read("")
		if err != nil {
			return nil, err
		}
		cfg.StateDir, cfg.BoardID = state, "unit"
		return cfg, cfg.ApplySetup()
	}
	if _, err := d.saveSetup(setup.Identity{Name: "unit", Variant: "millennium"}); err == nil || !strings.Contains(err.Error(), "this set's wiring does not sense those rules") {
		t.Errorf("millennium on the reference set: %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, config.SetupName)); err == nil {
		t.Fatal("written")
	}
	if _, err := d.saveSetup(setup.Identity{Name: "unit", Variant: "first-contact-up"}); err != nil {
		t.Errorf("first-contact-up on the reference set: %v", err)
	}
	// The game had no move: the set is ready for the rules chosen (the
	// journal's current game is theirs, which the restart resumes).
	if sys := resumedSystem(state); sys == nil || sys.Name() != "first-contact-up" {
		t.Errorf("the game after the save: %v", sys)
	}
}

// The daemon's pages lead a phone on the access point to /setup until the
// set is named on the page (setup.yaml's board_id), and not after; the
// set's screen is never led there.
func TestDaemonLeadsTheAccessPointToSetup(t *testing.T) {
	state := t.TempDir()
	d, _, _ := startInProcess(t, func(c *config.Config) { c.StateDir = state })
	get := func(url, local, remote string) (int, string) {
		r := httptest.NewRequest("GET", url, nil)
		r.RemoteAddr = remote
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(netip.MustParseAddrPort(local))))
		w := httptest.NewRecorder()
		d.http.Handler.ServeHTTP(w, r)
		return w.Code, w.Header().Get("Location")
	}
	const probe = "http://connectivitycheck.gstatic.com/generate_204"
	if st, loc := get(probe, "192.168.4.1:8080", "192.168.4.20:5000"); st != 302 || loc != "http://192.168.4.1:8080/setup" {
		t.Errorf("a probe on the access point, not set up: %d %q", st, loc)
	}
	if st, loc := get("http://127.0.0.1:8080/", "127.0.0.1:8080", "127.0.0.1:5000"); st != 200 || loc != "" {
		t.Errorf("the wall on the set's screen: %d %q", st, loc)
	}
	if err := config.UpdateSetup(state, func(s *config.Setup) error { s.BoardID = "club-7"; return nil }); err != nil {
		t.Fatal(err)
	}
	if st, loc := get(probe, "192.168.4.1:8080", "192.168.4.20:5000"); st == 302 {
		t.Errorf("a probe on the access point, named: %d %q", st, loc)
	}
	if st, _ := get("http://192.168.4.1:8080/", "192.168.4.1:8080", "192.168.4.20:5000"); st != 200 {
		t.Errorf("the wall on the access point, named: %d", st)
	}
}
