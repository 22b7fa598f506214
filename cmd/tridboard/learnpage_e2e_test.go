package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/sim"
)

// pageCall sends an HTTP request to the set's pages and decodes the JSON
// answer into v (nil: none); it returns the status.
func pageCall(t *testing.T, method, url, token, body string, v any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, url, res.StatusCode, b, err)
		}
	}
	return res.StatusCode
}

// byCellSlot is a wiring as cell -> "expander slot", buttons left out.
func byCellSlot(w *sensors.Wiring) map[string]string {
	out := map[string]string{}
	for _, e := range w.Expanders {
		for _, c := range e.Cells {
			if !strings.HasPrefix(c.Cell, sensors.ButtonPrefix) {
				out[c.Cell] = fmt.Sprintf("%s %d", e.Name(), e.Slot(c))
			}
		}
	}
	return out
}

// A set soldered at random, its wiring learned from the setup page while
// the daemon runs (run --sim --scramble): before, the set in its start
// position reads as a mismatch; the page starts learning (the token sent;
// loopback is one of the open addresses, as the set's own screen), the simulated builder (sim.Builder, as wiring learn --sim)
// follows the lit cells while the page shows the cell, where it is and the
// count; the result is saved, the daemon restarts in place with the
// learned wiring (setup.yaml):
// the set is in sync and a move played on it is recognised.
func TestEndToEndLearnTheWiringFromThePage(t *testing.T) {
	t.Setenv("TRIDBOARD_MQTT_COMMAND_TOKEN", "tok-7")
	state := t.TempDir()
	listen, web := freeport.Addr(t), freeport.Addr(t)
	const seed = "11"
	args := []string{"--scramble", seed, "--http", web}
	d := startDaemon(t, state, listen, args...)
	watch, _, _ := watchState(t, listen, "learn-watch")
	watch.waitState(t, "a mismatch on the scrambled set", func(s *protocol.State) bool { return s.Board.Status == protocol.BoardMismatch })

	base := "http://" + web + "/setup/wiring"
	var st setup.LearnStatus
	if code := pageCall(t, "GET", base+"/status", "", "", &st); code != 200 || st.State != setup.StateIdle {
		t.Fatalf("status before: %d %+v", code, st)
	}
	var reply map[string]any
	if code := pageCall(t, "POST", base+"/start", "tok-7", "", &reply); code != 202 {
		t.Fatalf("start: %d %v", code, reply)
	}
	// A second phone's start: refused, whether the first is still learning
	// or its result waits.
	if code := pageCall(t, "POST", base+"/start", "tok-7", "", &reply); code != 409 {
		t.Errorf("a second start: %d %v", code, reply)
	}
	// The page's view as it polls: the cells lit, where, the count.
	start := time.Now()
	seen, maxDone, cells := map[string]string{}, 0, len(st3d.System.Cells())
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		pageCall(t, "GET", base+"/status", "", "", &st)
		if st.Cell != "" {
			seen[st.Pass+" "+st.Cell] = st.Where
		}
		maxDone = max(maxDone, st.Done)
		if st.State != setup.StateLearning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still learning after 5 min: %+v", st)
		}
	}
	t.Logf("learned in %s of real time; the page saw %d of %d lit cells, done %d of %d", time.Since(start).Round(time.Millisecond), len(seen), 2*cells, maxDone, st.Total)
	if st.State != setup.StateDone || st.Result == nil || st.Result.Learned != cells || st.Result.Problems != 0 {
		t.Fatalf("after learning: %+v", st)
	}
	if len(st.Findings) != 1 || st.Findings[0].Problem || st.Findings[0].Text != fmt.Sprintf("%d cells learned and checked", cells) {
		t.Errorf("findings %+v", st.Findings)
	}
	if st.Total != 2*cells || maxDone != 2*cells {
		t.Errorf("done %d of %d, want %d of %d", maxDone, st.Total, 2*cells, 2*cells)
	}
	for c, w := range seen {
		if w == "" {
			t.Errorf("%s shown nowhere in words", c)
		}
	}
	if len(seen) == 0 {
		t.Error("the page never saw a lit cell")
	}
	if code := pageCall(t, "POST", base+"/save", "tok-7", "", &reply); code != 200 {
		t.Fatalf("save: %d %v", code, reply)
	}
	saved, err := config.ReadSetup(state)
	if err != nil || saved.Wiring == nil {
		t.Fatalf("setup.yaml: %+v, %v", saved, err)
	}
	def := config.Default()
	hwBase, _ := def.Wiring(st3d.System.Cells())
	var sd uint64
	fmt.Sscan(seed, &sd)
	hw, got := byCellSlot(sim.Scramble(hwBase, sd)), byCellSlot(saved.Wiring)
	if len(got) != cells {
		t.Errorf("%d cells saved, want %d", len(got), cells)
	}
	for c, slot := range hw {
		if got[c] != slot {
			t.Errorf("cell %s saved at %q, soldered at %q", c, got[c], slot)
		}
	}

	// The daemon restarts in place (the same process) with the new wiring:
	// its page answers again, learning idle.
	for deadline := time.Now().Add(60 * time.Second); ; {
		var now setup.LearnStatus
		res, err := http.Get(base + "/status")
		if err == nil {
			json.NewDecoder(res.Body).Decode(&now)
			res.Body.Close()
			if res.StatusCode == 200 && now.State == setup.StateIdle {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not come back within 60 s: %v %+v", err, now)
		}
		time.Sleep(100 * time.Millisecond)
	}
	watch, _, _ = watchState(t, listen, "learn-watch-2") // a new broker: subscribe again
	watch.waitState(t, "in sync with the learned wiring", func(s *protocol.State) bool { return s.Board.Status == protocol.BoardInSync })
	if d.cmd.ProcessState != nil {
		t.Fatalf("the daemon exited: %v", d.cmd.ProcessState)
	}
	d.play(t, st3d.Start(), []string{"b2W-b3W"})
	d.waitMoveLine(t, "b2W-b3W")
	if code := pageCall(t, "GET", base+"/status", "", "", &st); code != 200 || st.State != setup.StateIdle {
		t.Errorf("status after the restart: %d %+v", code, st)
	}
}
