package web

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/internal/backoff"
)

// Limits guard a server against guessing and hoarding: failed tokens are
// slowed down per address, and event streams are capped per address and
// in all (docs/web.md, "Limits").
type Limits struct {
	// StreamsPerAddress and Streams bound the open event streams (the
	// pages' live feeds) of one client address and of all; a stream
	// beyond is answered 503 with Retry-After. Negative: no bound.
	StreamsPerAddress, Streams int
	// Backoff and BackoffMax: after n wrong tokens in a row from an
	// address, its next request with a token is answered after
	// min(Backoff·2^(n-1), BackoffMax); concurrent ones queue, and one
	// that would wait over a minute, or find 8 waiting, is refused (429).
	// A right token forgets the address.
	Backoff, BackoffMax time.Duration
	// Log receives each wrong token and each refused stream or attempt
	// (nil: slog.Default()).
	Log *slog.Logger
	// Now is the backoff's clock (nil: time.Now); Sleep waits d or until
	// ctx ends, false then (nil: a real timer).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) bool
}

// DefaultLimits: 32 streams per address, 1,024 in all (about 35 MB), wrong
// tokens slowed from 250 ms doubling to 10 s, as the broker slows wrong
// passwords.
func DefaultLimits() Limits {
	return Limits{StreamsPerAddress: 32, Streams: 1024, Backoff: 250 * time.Millisecond, BackoffMax: 10 * time.Second}
}

// Guard wraps h with l: a request carrying "Authorization" waits for its
// address's turn and counts as a failure when h answers 401; a GET of an
// event stream (isStream) takes a place among the streams while it lasts.
func Guard(h http.Handler, l Limits) http.Handler {
	d := DefaultLimits()
	if l.StreamsPerAddress == 0 {
		l.StreamsPerAddress = d.StreamsPerAddress
	}
	if l.Streams == 0 {
		l.Streams = d.Streams
	}
	if l.Log == nil {
		l.Log = slog.Default()
	}
	if l.Now == nil {
		l.Now = time.Now
	}
	if l.Sleep == nil {
		l.Sleep = func(ctx context.Context, d time.Duration) bool {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return false
			case <-t.C:
				return true
			}
		}
	}
	return &guard{h: h, l: l, tokens: backoff.New(l.Backoff, l.BackoffMax, l.Now), per: map[string]int{}}
}

type guard struct {
	h      http.Handler
	l      Limits
	tokens *backoff.Limiter

	mu    sync.Mutex
	per   map[string]int // open streams by address
	total int
}

// isStream says whether r asks for an event stream: /events and
// /boards/{id}/events.
func isStream(r *http.Request) bool {
	return r.Method == http.MethodGet && (r.URL.Path == "/events" || strings.HasSuffix(r.URL.Path, "/events"))
}

func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	addr := clientAddr(r)
	if isStream(r) {
		if why := g.open(addr); why != "" {
			g.l.Log.Warn("web: event stream refused", "remote", addr, "why", why)
			w.Header().Set("Retry-After", "10")
			http.Error(w, "web: "+why+": try again later", http.StatusServiceUnavailable)
			return
		}
		defer g.close(addr)
	}
	if r.Header.Get("Authorization") == "" {
		g.h.ServeHTTP(w, r)
		return
	}
	wait, ok := g.tokens.Slot(addr)
	if !ok {
		g.l.Log.Warn("web: token attempt refused: too many wrong tokens from this address", "remote", addr, "path", r.URL.Path)
		w.Header().Set("Retry-After", "60")
		http.Error(w, "web: too many wrong tokens from this address: try again later", http.StatusTooManyRequests)
		return
	}
	if wait > 0 {
		ok := g.l.Sleep(r.Context(), wait)
		g.tokens.Release(addr)
		if !ok {
			return
		}
	}
	sw := &statusWriter{ResponseWriter: w}
	g.h.ServeHTTP(sw, r)
	switch {
	case sw.status == http.StatusUnauthorized:
		g.tokens.Failed(addr)
		g.l.Log.Warn("web: wrong token", "remote", addr, "path", r.URL.Path)
	case sw.status < 400:
		g.tokens.Succeeded(addr)
	}
}

// open takes a stream's place for addr, or says why there is none.
func (g *guard) open(addr string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.l.Streams > 0 && g.total >= g.l.Streams:
		return fmt.Sprintf("%d event streams are open, the most this server serves", g.total)
	case g.l.StreamsPerAddress > 0 && g.per[addr] >= g.l.StreamsPerAddress:
		return fmt.Sprintf("%d event streams are open from this address, the most it may have", g.per[addr])
	}
	g.per[addr]++
	g.total++
	return ""
}

func (g *guard) close(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.per[addr]--; g.per[addr] <= 0 {
		delete(g.per, addr)
	}
}

// statusWriter notes the status a handler answers with; it passes
// flushing on, for the streams.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes a flush on.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
