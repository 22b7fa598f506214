package backoff

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiter (simulated time): failed attempts from one address wait
// longer and longer, concurrent attempts queue, another address is not
// slowed, a success forgets the address.
func TestLimiter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	l := New(250*time.Millisecond, 10*time.Second, func() time.Time { return now })
	// 200 wrong passwords in a row, each waiting its turn.
	var total time.Duration
	refused := 0
	for range 200 {
		wait, ok := l.Slot("10.0.0.9")
		if !ok {
			refused++
		}
		now = now.Add(wait)
		total += wait
		if wait > 0 {
			l.Release("10.0.0.9")
		}
		l.Failed("10.0.0.9")
	}
	// 0.25+0.5+1+2+4+8 s, then 10 s for each of the other 193.
	if want := 1945750 * time.Millisecond; total != want || refused != 0 {
		t.Fatalf("200 wrong passwords waited %v (%d refused), want %v", total, refused, want)
	}
	if wait, ok := l.Slot("10.0.0.10"); wait != 0 || !ok {
		t.Fatalf("another address waits %v (ok %v), want 0", wait, ok)
	}
	// Concurrent attempts from the failing address queue one after another.
	var waits []time.Duration
	for range 3 {
		w, _ := l.Slot("10.0.0.9")
		waits = append(waits, w)
	}
	if want := []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second}; fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Fatalf("concurrent waits %v, want %v", waits, want)
	}
	for range 4 {
		l.Slot("10.0.0.9")
	}
	if _, ok := l.Slot("10.0.0.9"); ok {
		t.Fatal("an attempt that would wait over a minute was not refused")
	}
	l.Succeeded("10.0.0.9")
	if wait, ok := l.Slot("10.0.0.9"); wait != 0 || !ok {
		t.Fatalf("after a success: wait %v ok %v, want 0", wait, ok)
	}
	// At most maxWaiting attempts of one address wait at once.
	l = New(time.Millisecond, time.Millisecond, func() time.Time { return now })
	l.Failed("10.0.0.9")
	for i := range maxWaiting {
		if _, ok := l.Slot("10.0.0.9"); !ok {
			t.Fatalf("waiting attempt %d refused", i+1)
		}
	}
	if _, ok := l.Slot("10.0.0.9"); ok {
		t.Fatalf("attempt %d waits too", maxWaiting+1)
	}
	l.Release("10.0.0.9")
	if _, ok := l.Slot("10.0.0.9"); !ok {
		t.Fatal("refused after a wait ended")
	}
}
