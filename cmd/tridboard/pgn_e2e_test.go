package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sim"
)

// getPGN fetches the web record of board "unit".
func getPGN(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "boards/unit/game.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// Issue 25: /boards/<id>/game.pgn and `tridboard export` write one record,
// byte for byte: Site, Date, TimeControl, each move's [%clk], the result
// and the Termination, for a game played on run --sim with a clock, while
// it goes on and once it is over.
func TestEndToEndWebRecordIsTheExport(t *testing.T) {
	d, c, topics := startInProcess(t, func(cfg *config.Config) { cfg.Clock.TimeControl = "180+2" })
	export := func() string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runExport([]string{"--state-dir", d.o.cfg.StateDir}, &out, &errb); code != exitOK {
			t.Fatalf("export: %d %s", code, errb.String())
		}
		return out.String()
	}
	same := func(when string) {
		t.Helper()
		var web, exp string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if web, exp = getPGN(t, d.webURL), export(); web == exp {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the web record differs from the export:\n%s\nexport:\n%s", when, web, exp)
			}
		}
		for _, want := range []string{`[Site "unit"]`, `[TimeControl "180+2"]`, "{[%clk 0:0"} {
			if !strings.Contains(web, want) {
				t.Errorf("%s: the record lacks %q:\n%s", when, want, web)
			}
		}
		if strings.Contains(web, `[Date "????.??.??"]`) {
			t.Errorf("%s: no date:\n%s", when, web)
		}
	}
	style := sim.PlainStyle
	style.Pause = 60 * time.Millisecond
	pos := rules.Position(st3d.Start())
	for i, long := range st3dDemo[:4] {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range sim.Gestures(pos, m, style) {
			if a.Op == sim.OpWait {
				time.Sleep(a.Wait)
			} else if err := d.board.Set.Do(a); err != nil {
				t.Fatal(err)
			}
		}
		pos = pos.Play(m)
		for deadline := time.Now().Add(10 * time.Second); len(d.tb.Snapshot().Moves) <= i; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s not recognized", long)
			}
		}
	}
	same("after 4 moves")
	if r := sendCommand(t, c, topics, "resign", `{"side":"black"}`); r["status"] != "ok" {
		t.Fatalf("resign: %v", r)
	}
	same("after Black resigned")
	if web := getPGN(t, d.webURL); !strings.Contains(web, `[Termination "normal"]`) || !strings.HasSuffix(web, " 1-0\n") {
		t.Errorf("the finished record:\n%s", web)
	}
}
