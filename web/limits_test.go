package web

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// simLimits are Limits on a simulated clock whose sleeps are recorded, and
// a log to read.
func simLimits() (Limits, *[]time.Duration, *bytes.Buffer) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	var waits []time.Duration
	var log bytes.Buffer
	l := DefaultLimits()
	l.Log = slog.New(slog.NewTextHandler(&log, nil))
	l.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	l.Sleep = func(_ context.Context, d time.Duration) bool {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		now = now.Add(d)
		return true
	}
	return l, &waits, &log
}

// Issue 34: guessing the page's command token costs: wrong tokens from one
// address are answered later and later (simulated time), each is logged,
// another address is not slowed, the right token forgets the address.
func TestGuardSlowsWrongTokens(t *testing.T) {
	l, waits, log := simLimits()
	c := &fakeCommander{}
	o := DefaultServerOpts()
	o.Commander, o.Token, o.Limits = c, "s3cret", l
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "b1", "st3d")
	srv := New(h, o).HTTPServer().Handler
	post := func(addr, token string) int {
		r := httptest.NewRequest("POST", "/boards/b1/command/resign", strings.NewReader(`{"side":"black"}`))
		r.RemoteAddr = addr + ":40000"
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w.Code
	}
	for i := range 6 {
		if code := post("10.0.0.9", fmt.Sprintf("guess-%d", i)); code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want 401", i, code)
		}
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
	if fmt.Sprint(*waits) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", *waits, want)
	}
	if n := strings.Count(log.String(), "web: wrong token"); n != 6 {
		t.Errorf("%d wrong tokens logged, want 6:\n%s", n, log)
	}
	*waits = nil
	if code := post("10.0.0.10", "guess"); code != http.StatusUnauthorized || len(*waits) != 0 {
		t.Errorf("another address: %d after %v, want 401 at once", code, *waits)
	}
	if code := post("10.0.0.9", "s3cret"); code != http.StatusOK {
		t.Errorf("the right token: %d", code)
	}
	*waits = nil
	if code := post("10.0.0.9", "guess"); code != http.StatusUnauthorized || len(*waits) != 0 {
		t.Errorf("after the right token: %d after %v, want 401 at once", code, *waits)
	}
	if len(c.got) != 1 {
		t.Errorf("the commander got %v, want only the right token's", c.got)
	}
}

// Issue 34: event streams are capped per address and in all; a place is
// given back when a stream ends; the refusals are logged.
func TestGuardCapsStreams(t *testing.T) {
	release := make(chan struct{})
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	l, _, log := simLimits()
	l.StreamsPerAddress, l.Streams = 2, 3
	g := Guard(inner, l)
	type res struct {
		addr string
		code int
	}
	var wg sync.WaitGroup
	got := make(chan res, 10)
	open := func(addr, path string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := httptest.NewRequest("GET", path, nil)
			r.RemoteAddr = addr + ":1234"
			w := httptest.NewRecorder()
			g.ServeHTTP(w, r)
			got <- res{addr, w.Code}
		}()
	}
	waitOpen := func(n int) {
		t.Helper()
		gd := g.(*guard)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			gd.mu.Lock()
			total := gd.total
			gd.mu.Unlock()
			if total == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d streams open, want %d", total, n)
			}
		}
	}
	open("10.0.0.9", "/events")
	open("10.0.0.9", "/boards/b1/events")
	waitOpen(2)
	open("10.0.0.9", "/events") // a third from one address
	if r := <-got; r.code != http.StatusServiceUnavailable {
		t.Fatalf("a third stream from one address: %d, want 503", r.code)
	}
	open("10.0.0.10", "/events")
	waitOpen(3)
	open("10.0.0.11", "/events") // a fourth in all
	if r := <-got; r.code != http.StatusServiceUnavailable || r.addr != "10.0.0.11" {
		t.Fatalf("a fourth stream: %+v, want 503", r)
	}
	// Pages and the API are not streams: never refused.
	r := httptest.NewRequest("GET", "/api/boards", nil)
	r.RemoteAddr = "10.0.0.9:1"
	w := httptest.NewRecorder()
	go g.ServeHTTP(w, r)
	close(release)
	wg.Wait()
	waitOpen(0)
	if n := strings.Count(log.String(), "web: event stream refused"); n != 2 {
		t.Errorf("%d refusals logged, want 2", n)
	}
}
