package event

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/tournament"
)

// Handler serves the event: the API (GET /api/event; POSTs under
// /api/event/ with the token), the arbiter's page (/event/), the records
// (/event/round-N/games.pgn, round-N/game-M.pgn, round-N/index.json,
// /event/tournament.trf, /event/crosstable.csv and .html). Without a token
// every POST is refused: an event is not run open to the hall's network.
func Handler(r *Runner, token string) http.Handler {
	mux := http.NewServeMux()
	h := &api{r: r, token: token}
	mux.HandleFunc("GET /api/event", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, r.Snapshot()) })
	mux.HandleFunc("POST /api/event/rounds/{n}/pair", h.auth(h.pair))
	mux.HandleFunc("POST /api/event/rounds/{n}/pairings", h.auth(h.pairings))
	mux.HandleFunc("POST /api/event/rounds/{n}/swap", h.auth(h.swap))
	mux.HandleFunc("POST /api/event/rounds/{n}/start", h.auth(h.start))
	mux.HandleFunc("POST /api/event/rounds/{n}/boards/{b}/replay", h.auth(h.replay))
	mux.HandleFunc("POST /api/event/results", h.auth(h.result))
	mux.HandleFunc("POST /api/event/players", h.auth(h.add))
	mux.HandleFunc("POST /api/event/players/{no}/withdraw", h.auth(h.withdraw))
	mux.HandleFunc("POST /api/event/clock", h.auth(h.clock))
	registerDesk(mux, h)
	mux.HandleFunc("GET /event/{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, arbiterPage)
	})
	mux.HandleFunc("GET /event/hall", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, hallPage)
	})
	mux.HandleFunc("GET /event/{round}/{file}", h.file(func(w io.Writer, n int, file string) error {
		switch file {
		case "games.pgn":
			return r.RoundPGN(w, n)
		case "index.json":
			ix, err := r.Index(n)
			if err != nil {
				return err
			}
			return json.NewEncoder(w).Encode(ix)
		}
		m, ok := strings.CutPrefix(file, "game-")
		m, ok2 := strings.CutSuffix(m, ".pgn")
		b, err := strconv.Atoi(m)
		if !ok || !ok2 || err != nil {
			return ErrNotFound
		}
		return r.GamePGN(w, n, b)
	}))
	mux.HandleFunc("GET /event/tournament.trf", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		r.TRF(w)
	})
	mux.HandleFunc("GET /event/crosstable.csv", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		r.CrosstableCSV(w)
	})
	mux.HandleFunc("GET /event/crosstable.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		r.CrosstableHTML(w)
	})
	return mux
}

type api struct {
	r     *Runner
	token string
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, err error) {
	code := http.StatusBadRequest
	switch {
	case errors.Is(err, ErrNotFound), errors.Is(err, tournament.ErrNoSuchGame):
		code = http.StatusNotFound
	case errors.Is(err, tournament.ErrRoundNotOver), errors.Is(err, tournament.ErrStarted), errors.Is(err, tournament.ErrNoMoreRounds):
		code = http.StatusConflict
	}
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

// auth wraps a POST handler: the token (Authorization: Bearer T) must match.
func (a *api) auth(f func(w http.ResponseWriter, req *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		got, _ := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
		if a.token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(a.token)) != 1 {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "the event's token is required (Authorization: Bearer <token>); an event without --token takes no changes"})
			return
		}
		req.Body = http.MaxBytesReader(w, req.Body, 256<<10)
		v, err := f(w, req)
		if err != nil {
			writeErr(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// file serves a round's file at /event/round-N/<file>.
func (a *api) file(f func(w io.Writer, n int, file string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		rs, ok := strings.CutPrefix(req.PathValue("round"), "round-")
		n, err := strconv.Atoi(rs)
		if !ok || err != nil {
			writeErr(w, fmt.Errorf("event: %s: %w", req.URL.Path, ErrNotFound))
			return
		}
		var b strings.Builder
		if err := f(&b, n, req.PathValue("file")); err != nil {
			if !errors.Is(err, ErrNotFound) {
				err = fmt.Errorf("%w: %v", ErrNotFound, err)
			}
			writeErr(w, err)
			return
		}
		ctype := "application/x-chess-pgn"
		if strings.HasSuffix(req.URL.Path, ".json") {
			ctype = "application/json"
		}
		w.Header().Set("Content-Type", ctype)
		io.WriteString(w, b.String())
	}
}

func decode(req *http.Request, v any) error {
	d := json.NewDecoder(req.Body)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("event: the request's JSON: %v", err)
	}
	return nil
}

func pathInt(req *http.Request, name string) (int, error) {
	n, err := strconv.Atoi(req.PathValue(name))
	if err != nil {
		return 0, fmt.Errorf("event: %s %q is not a number: %w", name, req.PathValue(name), ErrNotFound)
	}
	return n, nil
}

func (a *api) pair(w http.ResponseWriter, req *http.Request) (any, error) {
	n, err := pathInt(req, "n")
	if err != nil {
		return nil, err
	}
	if c := a.r.Snapshot(); n != len(c.Paired)+1 {
		return nil, fmt.Errorf("event: round %d is not the next round (%d)", n, len(c.Paired)+1)
	}
	return a.r.PairNext()
}

func (a *api) pairings(w http.ResponseWriter, req *http.Request) (any, error) {
	n, err := pathInt(req, "n")
	if err != nil {
		return nil, err
	}
	var body struct {
		Games  []tournament.Game `json:"games"`
		TRF    string            `json:"trf"`
		Reason string            `json:"reason"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	games := body.Games
	if body.TRF != "" {
		t, err := tournament.ReadTRF(strings.NewReader(body.TRF), "pairings.trf")
		if err != nil {
			return nil, err
		}
		if n > len(t.Rounds) {
			return nil, fmt.Errorf("event: the TRF has no round %d", n)
		}
		games = t.Rounds[n-1].Games
		if body.Reason == "" {
			body.Reason = "imported from a TRF"
		}
	}
	if err := a.r.SetPairings(n, games, body.Reason); err != nil {
		return nil, err
	}
	return a.r.Snapshot().Paired[n-1], nil
}

func (a *api) swap(w http.ResponseWriter, req *http.Request) (any, error) {
	n, err := pathInt(req, "n")
	if err != nil {
		return nil, err
	}
	var body struct {
		Board  int    `json:"board"`
		Reason string `json:"reason"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	return map[string]bool{"ok": true}, a.r.Swap(n, body.Board, body.Reason)
}

func (a *api) start(w http.ResponseWriter, req *http.Request) (any, error) {
	n, err := pathInt(req, "n")
	if err != nil {
		return nil, err
	}
	reps, err := a.r.StartRound(n)
	return map[string]any{"round": n, "boards": reps}, err
}

// roundBoard reads a path's round {n} and board {b}.
func roundBoard(req *http.Request) (n, b int, err error) {
	if n, err = pathInt(req, "n"); err == nil {
		b, err = pathInt(req, "b")
	}
	return n, b, err
}

func (a *api) replay(w http.ResponseWriter, req *http.Request) (any, error) {
	n, b, err := roundBoard(req)
	if err != nil {
		return nil, err
	}
	var body struct {
		Set    string `json:"set"`
		Reason string `json:"reason"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	return a.r.Replay(n, b, body.Set, body.Reason)
}

func (a *api) result(w http.ResponseWriter, req *http.Request) (any, error) {
	var body struct {
		Round  int    `json:"round"`
		Board  int    `json:"board"`
		Result string `json:"result"`
		Reason string `json:"reason"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	reps, err := a.r.SetResult(body.Round, body.Board, body.Result, body.Reason)
	return map[string]any{"ok": err == nil, "boards": reps}, err
}

func (a *api) add(w http.ResponseWriter, req *http.Request) (any, error) {
	var p tournament.Player
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if err := a.r.AddPlayer(p); err != nil {
		return nil, err
	}
	ps := a.r.Snapshot().Players
	return ps[len(ps)-1], nil
}

func (a *api) withdraw(w http.ResponseWriter, req *http.Request) (any, error) {
	no, err := pathInt(req, "no")
	if err != nil {
		return nil, err
	}
	var body struct {
		Reason string `json:"reason"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	return map[string]bool{"ok": true}, a.r.Withdraw(no, body.Reason)
}

func (a *api) clock(w http.ResponseWriter, req *http.Request) (any, error) {
	var body struct {
		Action string `json:"action"`
		Set    string `json:"set"`
		Side   string `json:"side"`
		MS     int64  `json:"ms"`
	}
	if err := decode(req, &body); err != nil {
		return nil, err
	}
	reps, err := a.r.Clock(body.Action, body.Set, body.Side, body.MS)
	return map[string]any{"sets": reps}, err
}
