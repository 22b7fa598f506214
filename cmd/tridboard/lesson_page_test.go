package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/web"
)

// A teacher locks the hints in the middle of a lesson (issue 21) and the
// daemon's own page (issue 23: typed snapshots) follows the LEDs: a lifted
// piece's targets go dark on both, the lifted cell still shows on the page,
// and both light the targets again once the teacher unlocks.
func TestTeacherLockOnTheLEDsAndThePage(t *testing.T) {
	d, c, topics := startInProcess(t)
	page := func() web.BoardView {
		t.Helper()
		return pageView(t, d.webURL+"api/boards/unit")
	}
	waitPage := func(what string, ok func(web.BoardView) bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			v := page()
			if ok(v) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the page: %s: lifted %v, targets %v", what, v.Lifted, v.Targets)
			}
		}
	}
	targets := []string{"b3N", "b3W", "b4N", "b4W"}
	lifted := func(want []string) func(web.BoardView) bool {
		return func(v web.BoardView) bool {
			return slices.Equal(v.Lifted, []string{"b2W"}) && slices.Equal(slices.Sorted(slices.Values(v.Targets)), want)
		}
	}

	if r := sendCommand(t, c, topics, "teach", `{"lock":true}`); r["status"] != "ok" {
		t.Fatalf("teach lock: %v", r)
	}
	if err := d.board.Set.Lift("b2W"); err != nil {
		t.Fatal(err)
	}
	waitPage("the pawn lifted under the lock, no targets", lifted(nil))
	waitLit(t, d, "")

	if r := sendCommand(t, c, topics, "teach", `{"lock":false}`); r["status"] != "ok" {
		t.Fatalf("teach unlock: %v", r)
	}
	waitPage("the pawn's targets once unlocked", lifted(targets))
	waitLit(t, d, "b3N b3W b4N b4W")
}

// pageView is the board as a page gets it from url (.../api/boards/ID).
func pageView(t *testing.T, url string) web.BoardView {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", url, r.Status)
	}
	var v web.BoardView
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return v
}
