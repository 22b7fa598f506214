package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

//go:embed static
var static embed.FS

// Commander runs a command that changes a game, as protocol.ParseCommand names
// them (new_game, take_back, resign, draw, ...) with their JSON payload,
// and returns its reply's data. The daemon implements it on its table;
// `tridboard view` by publishing on <prefix>/<board>/set/<name>.
type Commander interface {
	Command(ctx context.Context, board, name string, payload []byte) ([]byte, error)
}

// Opts configures a Server.
type Opts struct {
	// Commander runs the POSTed commands; nil refuses them.
	Commander Commander
	// Token is the command token a POST must carry (header
	// "Authorization: Bearer <token>"); empty refuses every command, so
	// that pages stay read-only without credentials. It is passed on in
	// the payload's "token" field.
	Token string
	// Heartbeat is how long an event stream may stay silent before the
	// server writes a heartbeat comment into it.
	Heartbeat time.Duration
	// NewTimer makes the heartbeats' timers (a channel that receives once
	// d has passed, and a function that stops it); nil means the real
	// clock. sim.TimeSource.NewTimer runs them in simulated time.
	NewTimer func(d time.Duration) (<-chan time.Time, func() bool)
	// Title heads the wall.
	Title string
	// Archive holds the boards' past games (nil: the games the hub saw).
	Archive Archive
	// Board, when set, is the one board whose commands this server runs
	// (a daemon's own board): a command posted for another id is refused
	// with 404. Empty passes every board's commands on (tridboard view).
	Board string
	// HeaderTimeout bounds the wait for a request's headers, from the
	// connection's opening or its last response; IdleTimeout closes a
	// keep-alive connection idle that long; BodyTimeout bounds the reading
	// of a command's body. The event streams are not bounded.
	HeaderTimeout, IdleTimeout, BodyTimeout time.Duration
	// Fingerprint is the set's signing key's fingerprint, shown on its
	// board page for the desk to compare (a daemon's own board; "" none).
	Fingerprint string
	// Limits guard the server HTTPServer serves (limits.go); the zero
	// value is DefaultLimits.
	Limits Limits
	// Peers are the base URLs of the other views serving the same hall
	// (http://hall-2:8080): the pages try them when their stream fails
	// (GET /api/peers lists them).
	Peers []string
	// Version is the running program's version, which the pages show
	// ("" shows none). UpdatePending, if set, says whether a newer
	// version is installed than the one running (the pages then say to
	// restart the service).
	Version       string
	UpdatePending func() bool
	// Setup, if set, serves /setup and below (the set's first boot from a
	// phone: package setup).
	Setup http.Handler
}

// DefaultServerOpts: no commands, a heartbeat after 15 s of silence, headers within
// 10 s, a body within 10 s, idle connections closed after 60 s.
func DefaultServerOpts() Opts {
	return Opts{Heartbeat: 15 * time.Second, Title: "tridboard", NewTimer: realTimer,
		HeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second, BodyTimeout: 10 * time.Second}
}

// Server serves the pages and feeds of a Hub.
type Server struct {
	hub  *Hub
	opts Opts
	mux  *http.ServeMux
	feed feedStamps // the broadcast feed's ETags and Last-Modified (livechess.go)
}

// New returns a server for hub.
func New(hub *Hub, opts Opts) *Server {
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultServerOpts().Heartbeat
	}
	d := DefaultServerOpts()
	if opts.NewTimer == nil {
		opts.NewTimer = d.NewTimer
	}
	if opts.Title == "" {
		opts.Title = d.Title
	}
	for _, t := range []struct {
		v *time.Duration
		d time.Duration
	}{
		{&opts.HeaderTimeout, d.HeaderTimeout}, {&opts.IdleTimeout, d.IdleTimeout}, {&opts.BodyTimeout, d.BodyTimeout}} {
		if *t.v <= 0 {
			*t.v = t.d
		}
	}
	s := &Server{hub: hub, opts: opts, mux: http.NewServeMux()}
	sub, _ := fs.Sub(static, "static")
	files := newCompressed(sub)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", cacheable(noListing(sub, files))))
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "favicon.svg"
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
	s.mux.HandleFunc("GET /{$}", s.page("wall.html"))
	s.mux.HandleFunc("GET /boards/{id}", s.page("board.html"))
	s.mux.HandleFunc("GET /boards/{id}/game.pgn", s.pgn)
	s.mux.HandleFunc("GET /boards/{id}/events", s.boardEvents)
	s.mux.HandleFunc("POST /boards/{id}/command/{name}", s.command)
	s.mux.HandleFunc("GET /events", s.wallEvents)
	s.mux.HandleFunc("GET /api/boards", s.apiBoards)
	s.mux.HandleFunc("GET /api/boards/{id}", s.apiBoard)
	s.mux.HandleFunc("GET /api/layouts/{variant}", s.apiLayout)
	s.mux.HandleFunc("GET /api/peers", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, append([]string{}, s.opts.Peers...))
	})
	s.mux.HandleFunc("GET /broadcast/", s.broadcastFeed)
	s.mux.HandleFunc("GET /api/boards/{id}/games", s.apiGames)
	s.mux.HandleFunc("GET /api/boards/{id}/games/{game}", s.apiGame)
	s.mux.HandleFunc("GET /boards/{id}/games/{file}", s.gameFile)
	if opts.Setup != nil {
		s.mux.Handle("/setup", opts.Setup)
		s.mux.Handle("/setup/", opts.Setup)
	}
	return s
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// HTTPServer is an http.Server of the handler with the timeouts and the
// limits of the options (Guard): a connection that sends no request, or
// stays idle, is closed; wrong tokens are slowed, event streams capped.
// (No whole-request read or write timeout: the event streams last.)
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{Handler: Guard(s.mux, s.opts.Limits), ReadHeaderTimeout: s.opts.HeaderTimeout, IdleTimeout: s.opts.IdleTimeout}
}

// noListing answers 404 for a directory, which files would list.
func noListing(fsys fs.FS, files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(r.URL.Path, "/")
		if fi, err := fs.Stat(fsys, name); name == "" || err == nil && fi.IsDir() || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

func cacheable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "vendor/") {
			w.Header().Set("Cache-Control", "public, max-age=86400")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id := r.PathValue("id"); id != "" && !validID(id) {
			http.Error(w, "web: board id "+strconv.Quote(id)+": letters, digits, - _ . only", http.StatusBadRequest)
			return
		}
		b, err := static.ReadFile("static/" + name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		id := r.PathValue("id")
		found, class := "hidden", ""
		if _, ok := s.hub.Summary(id); !ok && id != "" {
			found, class = "", " missing"
		}
		b = []byte(strings.NewReplacer("{{TITLE}}", htmlEscape(s.opts.Title), "{{ID}}", htmlEscape(id),
			"{{FOUND}}", found, "{{BODYCLASS}}", class, "{{KEY}}", htmlEscape(s.opts.Fingerprint),
			"{{KEYHIDDEN}}", map[bool]string{true: "hidden", false: ""}[s.opts.Fingerprint == ""],
			"{{VERSION}}", htmlEscape(s.versionLine())).Replace(string(b)))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		if class != "" {
			// An unknown board: the page says so (and shows the board
			// when it publishes).
			w.WriteHeader(http.StatusNotFound)
		}
		w.Write(b)
	}
}

// versionLine is what the pages say of the version running: "tridboard
// 1.2.3", with the note of an update installed but not yet running.
func (s *Server) versionLine() string {
	if s.opts.Version == "" {
		return ""
	}
	line := "tridboard " + s.opts.Version
	if s.opts.UpdatePending != nil && s.opts.UpdatePending() {
		line += " (an update is installed: restart the service to run it)"
	}
	return line
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) apiBoards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, s.hub.Summaries())
}

func (s *Server) apiBoard(w http.ResponseWriter, r *http.Request) {
	v, ok := s.hub.View(r.PathValue("id"))
	if !ok {
		http.Error(w, "web: no board "+strconv.Quote(r.PathValue("id")), http.StatusNotFound)
		return
	}
	writeJSON(w, v)
}

func (s *Server) apiLayout(w http.ResponseWriter, r *http.Request) {
	l, err := s.hub.Layout(r.PathValue("variant"))
	if err != nil {
		http.Error(w, "web: layout: "+err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, l)
}

func (s *Server) pgn(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	if err := s.hub.WriteRecord(&b, r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	io.WriteString(w, b.String())
}

// sse starts an event stream.
func sse(w http.ResponseWriter) (http.Flusher, bool) {
	f, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "web: streaming unsupported", http.StatusInternalServerError)
		return nil, false
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")          // nginx: do not buffer
	h.Set("Access-Control-Allow-Origin", "*") // the pages of the other views (Opts.Peers)
	// Not chunked: the stream ends with its connection (as the SSE spec
	// recommends), and each batch goes out as one write, one system call
	// (net/http's chunking cut a wall's batch into three).
	h.Set("Transfer-Encoding", "identity")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	f.Flush()
	return f, true
}

// wait waits for a change on ch, writing a heartbeat comment after each
// Heartbeat of silence (on the server's timers); it returns false when the
// client has gone.
func (s *Server) wait(ctx context.Context, ch <-chan struct{}, w io.Writer, f http.Flusher) bool {
	for {
		tick, stop := s.opts.NewTimer(s.opts.Heartbeat)
		select {
		case <-ctx.Done():
			stop()
			return false
		case <-ch:
			stop()
			return true
		case <-tick:
			if _, err := io.WriteString(w, ": heartbeat\n\n"); err != nil {
				return false
			}
			f.Flush()
		}
	}
}

func writeEvent(w io.Writer, id, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if id != "" {
		if _, err := fmt.Fprintf(w, "id: %s\n", id); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	return err
}

// boardEvents streams one board: a "view" event (with every move when
// full, else the moves after the client's) at each change, its id the seq
// of the last move. A client resumes with ?game=<game>&after=<seq>, or the
// Last-Event-ID header (the seq), and gets the moves it missed; a late
// joiner gets the whole game in its first event. A page resuming from
// another view further on than this one gets nothing until this one has
// caught up: it never steps back.
func (s *Server) boardEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		http.Error(w, "web: bad board id", http.StatusBadRequest)
		return
	}
	after, game := -1, r.URL.Query().Get("game")
	if v := r.URL.Query().Get("after"); v != "" {
		after, _ = strconv.Atoi(v)
	} else if v := r.Header.Get("Last-Event-ID"); v != "" {
		after, _ = strconv.Atoi(v)
	}
	ch, cancel := s.hub.subscribe(id)
	defer cancel()
	f, ok := sse(w)
	if !ok {
		return
	}
	var epoch, ver uint64
	seq := 0
	resume := after >= 0
	for {
		switch {
		case after > 0 && s.hub.behind(id, game, after):
			// This view is behind the page (which came from another):
			// nothing until it has what the page has.
		case resume:
			resume = false
			epoch, seq = s.hub.resumeEpoch(id, game, after), after
			if epoch == 0 {
				seq = 0
			}
			continue // and what changed since
		default:
			frame, e, sq, v, changed := s.hub.sinceFrame(id, epoch, seq, ver)
			if !changed {
				break
			}
			if _, err := w.Write(frame); err != nil {
				return
			}
			f.Flush()
			epoch, seq, ver = e, sq, v
			after = 0 // caught up with the page: a take-back may follow
		}
		if !s.wait(r.Context(), ch, w, f) {
			return
		}
	}
}

// wallEvents streams every board's summary: a "board" event for each board,
// then one for each change (feed.go: encoded once for every stream, at most
// one per board and tick), and a "now" event (the server's time) after the
// first summaries, which may be older. A stream that falls behind the
// wall's log gets every board's latest summary again.
func (s *Server) wallEvents(w http.ResponseWriter, r *http.Request) {
	leave := s.hub.joinWall()
	defer leave()
	f, ok := sse(w)
	if !ok {
		return
	}
	var buf, data []byte // buf: a slow stream's own batch
	var cur uint64
	var wake <-chan struct{}
	for first := true; ; first = false {
		if !first {
			data, cur, wake, ok = s.hub.wall.next(cur, &buf)
		}
		if first || !ok {
			// Every board, in one write: the same bytes as every stream
			// starting before a board changes.
			data, cur, wake = s.hub.wallSnapshot()
			if _, err := w.Write(data); err != nil {
				return
			}
			if err := writeEvent(w, "", "now", s.hub.opts.Now()); err != nil {
				return
			}
		} else {
			// A batch in one write: one system call, the same bytes as
			// every other stream's unless this one was behind.
			if _, err := w.Write(data); err != nil {
				return
			}
		}
		f.Flush()
		if !s.wait(r.Context(), wake, w, f) {
			return
		}
	}
}

// command passes a POSTed command to the Commander, after checking the
// token.
func (s *Server) command(w http.ResponseWriter, r *http.Request) {
	id, name := r.PathValue("id"), r.PathValue("name")
	if s.opts.Commander == nil || s.opts.Token == "" {
		http.Error(w, "web: commands are off (no command token configured)", http.StatusForbidden)
		return
	}
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.opts.Token)) != 1 {
		http.Error(w, "web: unauthorised: missing or wrong token", http.StatusUnauthorized)
		return
	}
	if !validID(id) {
		http.Error(w, "web: bad board id", http.StatusBadRequest)
		return
	}
	if s.opts.Board != "" && id != s.opts.Board {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"status": "error",
			"reason": fmt.Sprintf("no board %q here: this is board %q", id, s.opts.Board)})
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.opts.BodyTimeout))
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		http.Error(w, "web: reading the command: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		http.Error(w, "web: command "+name+": malformed payload: want a JSON object", http.StatusBadRequest)
		return
	}
	fields["token"], _ = json.Marshal(s.opts.Token)
	payload, _ := json.Marshal(fields)
	if _, _, _, err := protocol.ParseCommand(name, payload); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancelCtx := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancelCtx()
	data, err := s.opts.Commander.Command(ctx, id, name, payload)
	if err != nil {
		status := http.StatusConflict
		if errors.Is(err, context.DeadlineExceeded) {
			status = http.StatusGatewayTimeout
		}
		http.Error(w, "web: "+name+": "+err.Error(), status)
		return
	}
	if len(data) == 0 {
		data = []byte("null")
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"status":"ok","data":%s}`+"\n", data)
}
