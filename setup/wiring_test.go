package setup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLearn learns a two-cell set when released, as the daemon would:
// progress, a finding, a result; it counts the saves and can fail them.
type fakeLearn struct {
	mu       sync.Mutex
	release  chan struct{} // one learning finishes a receive
	game     bool          // a game is in progress
	saved    []any
	failSave error
	runs     int
}

func newFake() *fakeLearn { return &fakeLearn{release: make(chan struct{})} }

func (f *fakeLearn) learn() Learn {
	return Learn{
		Check: func(confirm bool) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.game && !confirm {
				return fmt.Errorf("%w (3 moves played, no result)", ErrGameInProgress)
			}
			return nil
		},
		Run: func(ctx context.Context, p *Progress) (Result, error) {
			f.mu.Lock()
			f.runs++
			f.mu.Unlock()
			p.Begin(4)
			p.Lit("QL1", "attack board QL1", "learn", true)
			p.Lit("a1W", "a1 White", "learn", false)
			p.Found(Finding{true, "b2W: no switch closed within 1m0s"})
			select {
			case <-f.release:
			case <-ctx.Done():
				p.Lit("", "", "", false)
				return Result{}, ctx.Err()
			}
			p.Lit("", "", "", false)
			return Result{Wiring: "the wiring", Text: "sensors:\n", Learned: 2, Problems: 1}, nil
		},
		Save: func(r Result) (string, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.failSave != nil {
				return "", f.failSave
			}
			f.saved = append(f.saved, r.Wiring)
			return "saved: the set restarts with it", nil
		},
	}
}

func waitState(t *testing.T, w *Wiring, want string) LearnStatus {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s := w.Status()
		if s.State == want {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("state %q, want %q", s.State, want)
		}
	}
}

// The wiring's API step by step, as the page and a hostile visitor use it:
// the token, one session at a time, cancel, the result saved or discarded,
// a game in progress confirmed, each refusal changing nothing.
func TestWiringAPI(t *testing.T) {
	f := newFake()
	o := Opts{Token: "tok-1", Wiring: NewWiring(f.learn())}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	release := func() { f.release <- struct{}{} }
	for i, s := range []struct {
		what        string
		before      func()
		action      string // POST /setup/wiring/<action>
		token, body string
		want        int
		wantReason  string // in the refusal
		state       string // then
	}{
		{what: "start without the token", action: "start", want: 401, wantReason: "missing or wrong command token", state: StateIdle},
		{what: "start with a wrong token", action: "start", token: "tok-2", want: 401, state: StateIdle},
		{what: "start with a malformed body", action: "start", token: "tok-1", body: `{"confirm": 1}`, want: 400, state: StateIdle},
		{what: "an unknown action", action: "reboot", token: "tok-1", want: 404, state: StateIdle},
		{what: "save with nothing learned", action: "save", token: "tok-1", want: 409, wantReason: "no learned wiring", state: StateIdle},
		{what: "cancel with nothing learning", action: "cancel", token: "tok-1", want: 409, state: StateIdle},
		{what: "start", action: "start", token: "tok-1", want: 202, state: StateLearning},
		{what: "a second start", action: "start", token: "tok-1", want: 409, wantReason: "being learned already", state: StateLearning},
		{what: "save while learning", action: "save", token: "tok-1", want: 409, state: StateLearning},
		{what: "cancel without the token", action: "cancel", want: 401, state: StateLearning},
		{what: "cancel", action: "cancel", token: "tok-1", want: 200, state: StateIdle},
		{what: "start again", action: "start", token: "tok-1", body: `{}`, want: 202, state: StateLearning},
		{what: "start while a result waits", before: func() { release(); waitState(t, o.Wiring, StateDone) }, action: "start", token: "tok-1", want: 409, wantReason: "save it or discard it", state: StateDone},
		{what: "discard without the token", action: "discard", want: 401, state: StateDone},
		{what: "discard", action: "discard", token: "tok-1", want: 200, state: StateIdle},
		{what: "discard again", action: "discard", token: "tok-1", want: 409, state: StateIdle},
		{what: "learn once more", action: "start", token: "tok-1", want: 202, state: StateLearning},
		{what: "a save that fails keeps the result", before: func() {
			release()
			waitState(t, o.Wiring, StateDone)
			f.failSave = errors.New("config: setup: disk full")
		}, action: "save", token: "tok-1", want: 503, wantReason: "disk full", state: StateDone},
		{what: "save", before: func() { f.failSave = nil }, action: "save", token: "tok-1", want: 200, state: StateSaved},
		{what: "start once saved", action: "start", token: "tok-1", want: 409, wantReason: "restarts with it", state: StateSaved},
	} {
		if s.before != nil {
			s.before()
		}
		st, m := do(t, srv, "POST", "/setup/wiring/"+s.action, s.token, s.body)
		if st != s.want || !strings.Contains(m["reason"], s.wantReason) {
			t.Fatalf("step %d, %s: %d %v, want %d %q", i, s.what, st, m, s.want, s.wantReason)
		}
		if st >= 400 && m["status"] != "error" {
			t.Errorf("step %d, %s: refusal %v", i, s.what, m)
		}
		if got := waitState(t, o.Wiring, s.state); s.state == StateLearning && got.Cell == "" {
			// Learning: the page sees the cell lit and where it is.
			for deadline := time.Now().Add(10 * time.Second); got.Cell != "a1W"; got = o.Wiring.Status() {
				if time.Now().After(deadline) {
					t.Fatalf("step %d: status %+v", i, got)
				}
			}
		}
	}
	if len(f.saved) != 1 || f.saved[0] != "the wiring" || f.runs != 3 {
		t.Errorf("saved %v after %d runs", f.saved, f.runs)
	}
}

// What the page polls: the lit cell, where it is, the count, the findings
// as they come; then the result.
func TestWiringStatusJSON(t *testing.T) {
	f := newFake()
	o := Opts{Token: "tok-1", Wiring: NewWiring(f.learn())}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	if st, _ := do(t, srv, "POST", "/setup/wiring/start", "tok-1", ""); st != 202 {
		t.Fatalf("start: %d", st)
	}
	get := func() string {
		res, err := http.Get(srv.URL + "/setup/wiring/status")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		json.NewDecoder(res.Body).Decode(&v)
		b, _ := json.Marshal(v)
		return string(b)
	}
	want := `{"cell":"a1W","done":2,"findings":[{"problem":true,"text":"b2W: no switch closed within 1m0s"}],"pass":"learn","state":"learning","total":4,"where":"a1 White"}`
	for deadline := time.Now().Add(10 * time.Second); get() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("status %s\nwant %s", get(), want)
		}
	}
	f.release <- struct{}{}
	waitState(t, o.Wiring, StateDone)
	want = `{"done":2,"findings":[{"problem":true,"text":"b2W: no switch closed within 1m0s"}],"result":{"learned":2,"problems":1,"text":"sensors:\n"},"state":"done","total":4}`
	if got := get(); got != want {
		t.Errorf("status %s\nwant %s", got, want)
	}
}

// Two starts at the same moment: one learns, the other is refused.
func TestWiringTwoStartsAtOnce(t *testing.T) {
	f := newFake()
	o := Opts{Token: "tok-1", Wiring: NewWiring(f.learn())}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	codes := make(chan int, 2)
	var ready sync.WaitGroup
	ready.Add(2)
	for range 2 {
		go func() {
			ready.Done()
			ready.Wait()
			st, _ := do(t, srv, "POST", "/setup/wiring/start", "tok-1", "")
			codes <- st
		}()
	}
	a, b := <-codes, <-codes
	if min(a, b) != 202 || max(a, b) != 409 {
		t.Errorf("two starts at once: %d and %d, want 202 and 409", a, b)
	}
	if err := o.Wiring.Cancel(context.Background()); err != nil || f.runs != 1 {
		t.Errorf("cancel: %v after %d runs", err, f.runs)
	}
}

// A game in progress: learning is refused until confirmed, and the page
// is told it may confirm.
func TestWiringGameInProgressNeedsConfirming(t *testing.T) {
	f := newFake()
	f.game = true
	o := Opts{Token: "tok-1", Wiring: NewWiring(f.learn())}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/setup/wiring/start", nil)
	req.Header.Set("Authorization", "Bearer tok-1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	res.Body.Close()
	if res.StatusCode != 409 || m["confirm"] != true || m["reason"] != "a game is in progress (3 moves played, no result)" {
		t.Fatalf("start during a game: %d %v", res.StatusCode, m)
	}
	if s := o.Wiring.Status(); s.State != StateIdle || f.runs != 0 {
		t.Fatalf("refused, yet %s after %d runs", s.State, f.runs)
	}
	if st, m := do(t, srv, "POST", "/setup/wiring/start", "tok-1", `{"confirm": true}`); st != 202 {
		t.Fatalf("confirmed: %d %v", st, m)
	}
	o.Wiring.Cancel(context.Background())
}

// Who may learn: with the token anywhere; without it only on the set's own
// addresses (its access point, its screen); no token configured, only
// there.
func TestWiringWhoMay(t *testing.T) {
	loop := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, c := range []struct {
		token string
		open  []netip.Prefix
		send  string
		want  int
	}{
		{"tok-1", nil, "", 401},
		{"tok-1", nil, "tok-1", 202},
		{"", nil, "", 403},
		{"", nil, "anything", 403},
		{"", loop, "", 202},
		{"tok-1", loop, "", 202},
	} {
		f := newFake()
		o := Opts{Token: c.token, Open: c.open, Wiring: NewWiring(f.learn())}
		srv := httptest.NewServer(Handler(o))
		st, m := do(t, srv, "POST", "/setup/wiring/start", c.send, "")
		if st != c.want {
			t.Errorf("token %q, open %v, sent %q: %d %v, want %d", c.token, c.open, c.send, st, m, c.want)
		}
		if st == 202 {
			o.Wiring.Cancel(context.Background())
		}
		srv.Close()
	}
	// The page is served either way, and says when the set cannot learn.
	srv := httptest.NewServer(Handler(Opts{}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/setup/wiring")
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /setup/wiring: %v %v", res, err)
	}
	res.Body.Close()
	if st, m := do(t, srv, "GET", "/setup/wiring/status", "", ""); st != 404 || !strings.Contains(m["reason"], "cannot learn its wiring") {
		t.Errorf("status without a session: %d %v", st, m)
	}
}
