// Package backoff slows down failed attempts per address: the embedded
// broker's logins, the pages' and the event API's tokens.
package backoff

import (
	"sync"
	"time"
)

// Limiter slows down failed attempts (logins, tokens) per address: after n
// failures in a row, the next attempt from that address waits min(base·2^(n-1), max), and
// concurrent attempts queue one after the other, so an address cannot try
// passwords faster by opening many connections. Other addresses are not
// slowed. An attempt that would wait over a minute, or find maxWaiting
// attempts from its address waiting already, is refused at once.
type Limiter struct {
	mu        sync.Mutex
	now       func() time.Time
	base, max time.Duration
	addrs     map[string]*addrState
}

type addrState struct {
	fails   int
	next    time.Time // when the next attempt may be checked
	waiting int       // attempts waiting for their turn
}

// maxWait is the longest an attempt waits; beyond it, it is refused.
const maxWait = time.Minute

// maxWaiting bounds the attempts of one address waiting at once (each holds
// a connection).
const maxWaiting = 8

// maxAddrs bounds the addresses remembered.
const maxAddrs = 4096

// New returns a Limiter waiting base after one failure, doubling up to max
// (250 ms and 10 s when 0), on the clock now.
func New(base, max time.Duration, now func() time.Time) *Limiter {
	if base <= 0 {
		base = 250 * time.Millisecond
	}
	if max < base {
		max = 10 * time.Second
	}
	return &Limiter{now: now, base: base, max: max, addrs: map[string]*addrState{}}
}

func (l *Limiter) delay(fails int) time.Duration {
	d := l.base
	for i := 1; i < fails && d < l.max; i++ {
		d *= 2
	}
	return min(d, l.max)
}

// Slot reserves the time at which an attempt from addr may be checked and
// returns how long to wait for it; false means refuse it now. After a
// wait, call Release.
func (l *Limiter) Slot(addr string) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.addrs[addr]
	if b == nil || b.fails == 0 {
		return 0, true
	}
	now := l.now()
	t := b.next
	if t.Before(now) {
		t = now
	}
	wait := t.Sub(now)
	if wait > maxWait || wait > 0 && b.waiting >= maxWaiting {
		return 0, false
	}
	if wait > 0 {
		b.waiting++
	}
	b.next = t.Add(l.delay(b.fails))
	return wait, true
}

// Release ends a wait Slot gave.
func (l *Limiter) Release(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.addrs[addr]; b != nil && b.waiting > 0 {
		b.waiting--
	}
}

// Failed counts a failed attempt from addr.
func (l *Limiter) Failed(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.addrs[addr]
	if b == nil {
		if len(l.addrs) >= maxAddrs {
			l.evict()
		}
		b = &addrState{}
		l.addrs[addr] = b
	}
	b.fails++
	if t := l.now().Add(l.delay(b.fails)); b.next.Before(t) {
		b.next = t
	}
}

// evict forgets the address whose wait ended longest ago.
func (l *Limiter) evict() {
	var oldest string
	for a, b := range l.addrs {
		if oldest == "" || b.next.Before(l.addrs[oldest].next) {
			oldest = a
		}
	}
	delete(l.addrs, oldest)
}

// Succeeded forgets addr's failures.
func (l *Limiter) Succeeded(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.addrs, addr)
}
