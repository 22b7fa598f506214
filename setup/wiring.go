package setup

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
)

//go:embed wiring.html
var wiringPage []byte

// Errors of a Wiring session, to test with errors.Is.
var (
	// ErrLearning: learning already runs (one session at a time).
	ErrLearning = errors.New("the wiring is being learned already: cancel it first")
	// ErrResultWaiting: a learned wiring waits to be saved or discarded.
	ErrResultWaiting = errors.New("a learned wiring waits: save it or discard it first")
	// ErrNoResult: nothing learned to save or discard.
	ErrNoResult = errors.New("no learned wiring to save or discard")
	// ErrSaved: a learned wiring was saved; the daemon is applying it.
	ErrSaved = errors.New("a learned wiring was saved: the set restarts with it")
	// ErrNotLearning: nothing to cancel.
	ErrNotLearning = errors.New("the wiring is not being learned")
	// ErrGameInProgress: a game goes on; learning must be confirmed (its
	// journal stays, its clock is paused, the set is emptied).
	ErrGameInProgress = errors.New("a game is in progress")
)

// Learn is the daemon's side of learning the set's wiring from the page
// (the bus, the LEDs, the table, the setup file): the page and its states
// are Wiring's.
type Learn struct {
	// Check tells, before learning starts, what keeps it from starting:
	// ErrGameInProgress (wrapped, with words) unless confirm, LEDs off, no
	// bus. Nil: nothing.
	Check func(confirm bool) error
	// Run learns the wiring, telling p as it goes, until it is done or
	// ctx ends (cancel); it has the bus and the LEDs meanwhile and gives
	// them back before it returns. Required.
	Run func(ctx context.Context, p *Progress) (Result, error)
	// Save keeps a result (writes it where the daemon reads its wiring,
	// and has it applied); its message says what happens next. Required.
	Save func(Result) (message string, err error)
}

// Result is a learned wiring.
type Result struct {
	// Wiring is what Save keeps (the daemon's own type).
	Wiring any `json:"-"`
	// Text is the wiring as the configuration's sensors section.
	Text string `json:"text"`
	// Learned counts the cells learned, Problems the findings that are.
	Learned  int `json:"learned"`
	Problems int `json:"problems"`
}

// Finding is one thing learning found: a problem (two cells on one
// input, a cell nothing closed for) or a note.
type Finding struct {
	Problem bool   `json:"problem"`
	Text    string `json:"text"`
}

// Session states (LearnStatus.State).
const (
	StateIdle     = "idle"     // nothing learned; Start
	StateLearning = "learning" // Cancel
	StateDone     = "done"     // Save or Discard
	StateFailed   = "failed"   // Start again
	StateSaved    = "saved"    // the daemon applies it
)

// LearnStatus is what the page shows.
type LearnStatus struct {
	State string `json:"state"`
	// Cell is the cell lit now, Where where it is in words, Pass "learn"
	// or "check", Stays whether what is put there stays (a board on its
	// pin).
	Cell  string `json:"cell,omitempty"`
	Where string `json:"where,omitempty"`
	Pass  string `json:"pass,omitempty"`
	Stays bool   `json:"stays,omitempty"`
	// Done counts the cells lit so far, of Total (both passes).
	Done  int `json:"done"`
	Total int `json:"total"`
	// Findings are those made so far.
	Findings []Finding `json:"findings"`
	// Result is the learned wiring (StateDone, StateSaved).
	Result *Result `json:"result,omitempty"`
	// Message says what happened last (cancelled, discarded, saved);
	// Error why learning failed.
	Message string `json:"message,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Progress is how Learn.Run tells the page how far it is.
type Progress struct{ w *Wiring }

// Begin says how many cells will be lit (both passes).
func (p *Progress) Begin(total int) {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	p.w.st.Total = total
}

// Lit says that cell (at where, in words) is lit for pass ("learn",
// "check"); cell "" puts the LEDs out.
func (p *Progress) Lit(cell, where, pass string, stays bool) {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	s := &p.w.st
	s.Cell, s.Where, s.Pass, s.Stays = cell, where, pass, stays
	if cell != "" {
		s.Done++
	}
}

// Found adds a finding.
func (p *Progress) Found(f Finding) {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	p.w.st.Findings = append(p.w.st.Findings, f)
}

// Wiring is the page's learning session: one at a time, then its result
// saved or discarded. It is safe for concurrent use.
type Wiring struct {
	l      Learn
	mu     sync.Mutex
	st     LearnStatus
	result Result
	cancel context.CancelFunc
	done   chan struct{} // closed when Run returned
}

// NewWiring returns an idle session over l.
func NewWiring(l Learn) *Wiring {
	return &Wiring{l: l, st: LearnStatus{State: StateIdle, Findings: []Finding{}}}
}

// Status returns the session's state.
func (w *Wiring) Status() LearnStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.st
	s.Findings = append([]Finding{}, s.Findings...)
	if s.Result != nil {
		r := *s.Result
		s.Result = &r
	}
	return s
}

// Start starts learning (Learn.Check first, with confirm); it returns at
// once, Run going on in the background.
func (w *Wiring) Start(confirm bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch w.st.State {
	case StateLearning:
		return ErrLearning
	case StateDone:
		return ErrResultWaiting
	case StateSaved:
		return ErrSaved
	}
	if w.l.Check != nil {
		if err := w.l.Check(confirm); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel, w.done = cancel, make(chan struct{})
	w.st = LearnStatus{State: StateLearning, Findings: []Finding{}}
	go w.run(ctx, w.done)
	return nil
}

func (w *Wiring) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	r, err := w.l.Run(ctx, &Progress{w})
	cancelled := ctx.Err() != nil
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cancel()
	w.st.Cell, w.st.Where, w.st.Pass, w.st.Stays = "", "", "", false
	switch {
	case cancelled:
		w.st.State, w.st.Message = StateIdle, "cancelled: nothing was saved"
	case err != nil:
		w.st.State, w.st.Error = StateFailed, err.Error()
	default:
		w.st.State, w.result = StateDone, r
		w.st.Result = &r
	}
}

// Cancel stops learning and waits until Run has given the bus back (or
// ctx ends).
func (w *Wiring) Cancel(ctx context.Context) error {
	w.mu.Lock()
	if w.st.State != StateLearning {
		w.mu.Unlock()
		return ErrNotLearning
	}
	w.cancel()
	done := w.done
	w.mu.Unlock()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Save keeps the learned wiring (Learn.Save) and returns its message; a
// failed save keeps the result, to save again or discard.
func (w *Wiring) Save() (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.st.State != StateDone {
		return "", ErrNoResult
	}
	msg, err := w.l.Save(w.result)
	if err != nil {
		return "", err
	}
	w.st.State, w.st.Message = StateSaved, msg
	return msg, nil
}

// Discard drops the learned wiring: the set goes on with the one it has.
func (w *Wiring) Discard() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.st.State != StateDone {
		return ErrNoResult
	}
	w.result = Result{}
	w.st = LearnStatus{State: StateIdle, Findings: []Finding{}, Message: "discarded: the set keeps the wiring it had"}
	return nil
}

// wiringRoutes serves the wiring's page and its API on m (Opts.Wiring).
func (o Opts) wiringRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /setup/wiring", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(wiringPage)
	})
	m.HandleFunc("GET /setup/wiring/status", func(w http.ResponseWriter, r *http.Request) {
		if o.Wiring == nil {
			fail(w, http.StatusNotFound, "this set cannot learn its wiring from the page (no LEDs, or not the daemon)")
			return
		}
		reply(w, http.StatusOK, o.Wiring.Status())
	})
	m.HandleFunc("POST /setup/wiring/{action}", o.wiringAction)
}

// wiringAction is POST /setup/wiring/start (a JSON {"confirm": bool},
// or nothing), cancel, save and discard: each with the command token, or
// on one of the Open addresses (the set's own access point).
func (o Opts) wiringAction(w http.ResponseWriter, r *http.Request) {
	if o.Wiring == nil {
		fail(w, http.StatusNotFound, "this set cannot learn its wiring from the page (no LEDs, or not the daemon)")
		return
	}
	if !o.open(r) {
		if o.Token == "" {
			fail(w, http.StatusForbidden, "learning the wiring needs the command token (none is configured) or the set's own Wi-Fi")
			return
		}
		if !o.authorised(r) {
			fail(w, http.StatusUnauthorized, "missing or wrong command token")
			return
		}
	}
	var err error
	msg := ""
	switch r.PathValue("action") {
	case "start":
		var req struct {
			Confirm bool `json:"confirm"`
		}
		dec := json.NewDecoder(io.LimitReader(r.Body, 1<<10))
		dec.DisallowUnknownFields()
		if derr := dec.Decode(&req); derr != nil && derr != io.EOF {
			fail(w, http.StatusBadRequest, `malformed request: want nothing, or {"confirm": true}`)
			return
		}
		if err = o.Wiring.Start(req.Confirm); err == nil {
			reply(w, http.StatusAccepted, map[string]string{"status": "ok", "message": "learning: take every piece and board off the set, then follow the lit cell"})
			return
		}
	case "cancel":
		err = o.Wiring.Cancel(r.Context())
		msg = "cancelled: nothing was saved"
	case "save":
		msg, err = o.Wiring.Save()
	case "discard":
		err = o.Wiring.Discard()
		msg = "discarded: the set keeps the wiring it had"
	default:
		fail(w, http.StatusNotFound, "no such action: start, cancel, save or discard")
		return
	}
	switch {
	case err == nil:
		reply(w, http.StatusOK, map[string]string{"status": "ok", "message": msg})
	case errors.Is(err, ErrGameInProgress):
		reply(w, http.StatusConflict, map[string]any{"status": "error", "reason": err.Error(), "confirm": true})
	case errors.Is(err, ErrLearning), errors.Is(err, ErrResultWaiting), errors.Is(err, ErrNoResult), errors.Is(err, ErrNotLearning),
		errors.Is(err, ErrSaved):
		fail(w, http.StatusConflict, err.Error())
	default:
		fail(w, http.StatusServiceUnavailable, err.Error())
	}
}
