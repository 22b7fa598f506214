package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tridboard/tridboard/event"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/tournament"
)

// eventProc is a "tridboard event" process and its HTTP address.
type eventProc struct {
	cmd *exec.Cmd
	url string
}

func startEvent(t *testing.T, args ...string) *eventProc {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"event", "--http", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &eventProc{cmd: cmd}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		// tridboard event: "X" on tcp://...: the arbiter's page is http://ADDR/event/
		if _, u, ok := strings.Cut(sc.Text(), "the arbiter's page is "); ok {
			p.url = strings.TrimSuffix(u, "/event/")
			go io.Copy(io.Discard, stdout)
			return p
		}
	}
	t.Fatalf("tridboard event did not start: %v", cmd.Wait())
	return nil
}

func (p *eventProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}

func (p *eventProc) get(t *testing.T, path string) string {
	t.Helper()
	return httpGet(t, p.url+path)
}

func (p *eventProc) post(t *testing.T, path, body string) map[string]any {
	t.Helper()
	return httpPost(t, p.url+"/api/event/"+path, "desk-secret", body)
}

// httpGet fetches url and fails the test unless it answers 200.
func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

// httpPost posts body to url with the token and fails the test unless it
// answers 200; it returns the JSON answer.
func httpPost(t *testing.T, url, token, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	json.NewDecoder(resp.Body).Decode(&v)
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s %s: %d %v", url, body, resp.StatusCode, v)
	}
	return v
}

func (p *eventProc) snapshot(t *testing.T) event.Snapshot {
	t.Helper()
	var s event.Snapshot
	if err := json.Unmarshal([]byte(p.get(t, "/api/event")), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// legalLine returns n legal moves of st3d from the start, long form.
func legalLine(t *testing.T, n, seed int) []string {
	sys, _ := systems.Lookup("st3d", "")
	pos := sys.Start()
	var out []string
	for i := 0; len(out) < n && i < 10*n; i++ {
		ms := pos.LegalMoves(nil)
		m := ms[(i*5+seed)%len(ms)]
		if next := pos.Play(m); next.Status() == rules.Ongoing {
			out, pos = append(out, pos.Long(m)), next
		}
	}
	return out
}

// The festival's desk and a round on a real broker, with the event a
// process of its own: players registered over the API, an exhibition game
// at a set recorded with both names, round 1 with more games than sets
// (two sets, one table), the event SIGKILLed in the middle of the round
// while moves go on at the sets, started again: every move with its
// clock in the round's PGN, the table's result entered, the TRF read
// back; then a record in the middle of its journal damaged and the event
// still starts, reporting what it cut.
func TestFestivalEventKilled(t *testing.T) {
	t.Parallel()
	broker := mosquittotest.Start(t)
	boards := []string{"fest-1", "fest-2"}
	sets := map[string]*inproc{}
	for _, b := range boards {
		sets[b] = startSet(t, b, t.TempDir(), broker.URL)
	}
	dir, site := t.TempDir(), filepath.Join(t.TempDir(), "site")
	args := []string{"--broker", broker.URL, "--state-dir", dir, "--token", "desk-secret", "--site-dir", site}
	ev := startEvent(t, append(args, "--boards", strings.Join(boards, ","), "--tables", "T1", "--rounds", "1",
		"--time-control", "600", "--name", "Pragyan 3D")...)
	for i, n := range []string{"Ann", "Bob", "Cy", "Dee", "Eve", "Fay"} {
		ev.post(t, "desk/players", fmt.Sprintf(`{"name":%q,"festival_id":"F%d"}`, n, i+1))
	}
	waitUntil(t, "the sets online", func() bool {
		v := ev.get(t, "/api/event/desk")
		return strings.Contains(v, `"free_sets":["fest-1","fest-2"]`)
	})

	// Exhibition: Ann and Bob at fest-1.
	ev.post(t, "exhibition", `{"set":"fest-1","white":"F1","black":"F2"}`)
	a := sets["fest-1"]
	waitUntil(t, "fest-1 plays Ann-Bob", func() bool {
		tg := a.d.tb.Snapshot().Tags
		return tg.White == "Ann" && tg.Black == "Bob" && tg.Event == "Pragyan 3D exhibition"
	})
	a.waitInSync()
	for _, m := range legalLine(t, 2, 1) {
		a.handSynced(m)
	}
	sendCommands(t, broker.URL)("fest-1", "resign", `{"side":"black"}`)
	waitUntil(t, "the exhibition game recorded", func() bool {
		return strings.Contains(ev.get(t, "/api/event/exhibition"), `"result":"1-0"`)
	})

	// Round 1: three games, two sets and a table.
	ev.post(t, "rounds/1/pair", "")
	start := ev.post(t, "rounds/1/start", "")
	if got := fmt.Sprint(start["boards"]); !strings.Contains(got, "table:true") {
		t.Errorf("start %s", got)
	}
	snap := ev.snapshot(t)
	name := func(no int) string { return snap.Players[no-1].Name }
	games := map[string]tournament.Game{}
	for _, g := range snap.Paired[0].Games {
		games[g.Set] = g
	}
	line := legalLine(t, 6, 2)
	for _, b := range boards {
		s, g := sets[b], games[b]
		waitUntil(t, b+" plays its round 1 game", func() bool {
			tg := s.d.tb.Snapshot().Tags
			return tg.Round == "1" && tg.White == name(g.White) && tg.Black == name(g.Black)
		})
		s.putBack(s.d.tb.Snapshot().Start) // the pieces set up again after the exhibition
		s.waitInSync()
		for _, m := range line[:3] {
			s.handSynced(m)
		}
	}
	waitUntil(t, "the event has 3 moves of each set's game", func() bool {
		pgn := ev.get(t, "/event/round-1/games.pgn")
		return strings.Count(pgn, "[%clk ") == 6
	})
	movetext := func(pgn string) string {
		_, m, _ := strings.Cut(pgn, "\n\n")
		return strings.TrimSuffix(strings.Join(strings.Fields(m), " "), " *")
	}
	before := map[int]string{}
	for _, b := range boards {
		before[games[b].Board] = movetext(ev.get(t, fmt.Sprintf("/event/round-1/game-%d.pgn", games[b].Board)))
	}
	ev.kill(t)
	// The players play on while the event is down.
	for _, b := range boards {
		sets[b].handSynced(line[3])
	}
	ev = startEvent(t, args...)
	for _, b := range boards {
		sets[b].handSynced(line[4])
	}
	waitUntil(t, "every move back with its clock", func() bool {
		return strings.Count(ev.get(t, "/event/round-1/games.pgn"), "[%clk ") == 10
	})
	for bd, m := range before {
		after := movetext(ev.get(t, fmt.Sprintf("/event/round-1/game-%d.pgn", bd)))
		if !strings.HasPrefix(after, m) || strings.Count(after, "[%clk ") != 5 {
			t.Errorf("board %d after the kill:\n%s\nbefore:\n%s", bd, after, m)
		}
	}
	cmd := sendCommands(t, broker.URL)
	cmd("fest-1", "resign", `{"side":"white"}`)
	cmd("fest-2", "draw", `{"action":"offer","side":"white"}`)
	cmd("fest-2", "draw", `{"action":"accept","side":"black"}`)
	ev.post(t, "results", fmt.Sprintf(`{"round":1,"board":%d,"result":"1-0","reason":"result slip from T1"}`, games["T1"].Board))
	waitUntil(t, "round 1 over", func() bool { return ev.snapshot(t).Paired[0].Over() })
	trf := ev.get(t, "/event/tournament.trf")
	back, err := tournament.ReadTRF(strings.NewReader(trf), "tournament.trf")
	if err != nil {
		t.Fatalf("%v\n%s", err, trf)
	}
	for _, g := range back.Rounds[0].Games {
		if !g.Result.Over() {
			t.Errorf("the TRF read back has no result for %+v", g)
		}
	}
	waitUntil(t, "the results site's round 1", func() bool {
		b, _ := os.ReadFile(filepath.Join(site, "round-1.pgn"))
		return strings.Count(string(b), `[Result "*"]`) == 0 && strings.Count(string(b), "[Event ") == 3
	})
	if b, _ := os.ReadFile(filepath.Join(site, "exhibition.pgn")); !strings.Contains(string(b), `[White "Ann"]`) {
		t.Errorf("the site's exhibition PGN:\n%s", b)
	}

	// A record in the middle of the journal damaged: the event still starts
	// and says what it cut.
	ev.kill(t)
	name1 := filepath.Join(dir, "event.journal")
	data, err := os.ReadFile(name1)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"op":"checkin"`) || strings.Contains(l, `"op":"entrant"`) {
			lines[i] = strings.Replace(l, `"F`, `"G`, 1)
			break
		}
	}
	os.WriteFile(name1, []byte(strings.Join(lines, "")), 0o644)
	ev = startEvent(t, args...)
	s := ev.snapshot(t)
	if len(s.Damage) != 1 || !strings.Contains(s.Damage[0].What, "an entrant decision") || !s.Paired[0].Over() {
		t.Errorf("after the damage: %+v, round 1 over %v", s.Damage, s.Paired[0].Over())
	}
}
