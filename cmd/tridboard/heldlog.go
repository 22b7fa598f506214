package main

import (
	"bytes"
	"io"
	"sync"
)

// heldWriter holds what is written to it until release: the daemon's log
// lines while it starts, so that a start-up failure prints one line (the
// error) and a start-up that works prints its log as usual.
type heldWriter struct {
	mu   sync.Mutex
	w    io.Writer
	buf  bytes.Buffer
	held bool
}

func holdWriter(w io.Writer) *heldWriter { return &heldWriter{w: w, held: true} }

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		return h.buf.Write(p)
	}
	return h.w.Write(p)
}

// release writes what was held (keep) or drops it, and lets every later
// write through.
func (h *heldWriter) release(keep bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.held {
		return
	}
	h.held = false
	if keep {
		_, _ = h.w.Write(h.buf.Bytes())
	}
	h.buf.Reset()
}
