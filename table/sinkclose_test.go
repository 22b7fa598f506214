package table_test

import (
	"sync"
	"testing"

	"github.com/tridboard/tridboard/table"
)

// closingSink records its events and its Close.
type closingSink struct {
	mu     sync.Mutex
	events int
	closed int
	after  int // events handled after Close
}

func (s *closingSink) Handle(table.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events++
	if s.closed > 0 {
		s.after++
	}
}

func (s *closingSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed++
	return nil
}

// The table closes a sink that can be closed, once, after its last event;
// a sink without Close is left alone.
func TestTableClosesItsSinks(t *testing.T) {
	r := newRig(t)
	s := &closingSink{}
	r.tb.AddSink(s)
	r.play("b2W-b4N")
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed != 1 || s.after != 0 || s.events == 0 {
		t.Errorf("closed %d times, %d events after the close, %d in all", s.closed, s.after, s.events)
	}
	if err := r.tb.Close(); err != nil || s.closed != 1 {
		t.Errorf("a second Close: %v, closed %d times", err, s.closed)
	}
}
