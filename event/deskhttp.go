package event

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/tournament"
)

// registerDesk adds the desk's, the exhibition's, the boards' and the
// printable pages' routes to mux.
func registerDesk(mux *http.ServeMux, h *api) {
	r := h.r
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		}
	}
	mux.HandleFunc("GET /event/desk", page(deskPage))
	mux.HandleFunc("GET /event/play/{set}", page(walkupPage))
	mux.HandleFunc("GET /api/event/desk", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, r.Desk()) })
	mux.HandleFunc("GET /api/event/exhibition", func(w http.ResponseWriter, _ *http.Request) {
		v := r.Desk()
		writeJSON(w, http.StatusOK, map[string]any{"free_sets": v.Free, "playing": v.Playing, "leaderboard": v.Leaders, "games": r.Exhibition()})
	})
	mux.HandleFunc("GET /event/exhibition/{file}", func(w http.ResponseWriter, req *http.Request) {
		id, ok := strings.CutSuffix(req.PathValue("file"), ".pgn")
		var b strings.Builder
		if err := r.ExhibitionPGN(&b, id); !ok || err != nil {
			writeErr(w, fmt.Errorf("event: %s: %w", req.URL.Path, ErrNotFound))
			return
		}
		w.Header().Set("Content-Type", "application/x-chess-pgn")
		io.WriteString(w, b.String())
	})
	mux.HandleFunc("GET /event/print/{page}", func(w http.ResponseWriter, req *http.Request) {
		round := 0
		if s := req.URL.Query().Get("round"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				writeErr(w, fmt.Errorf("event: round %q: %w", s, ErrNotFound))
				return
			}
			round = n
		}
		var b strings.Builder
		if err := r.Print(&b, req.PathValue("page"), round); err != nil {
			writeErr(w, err)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, b.String())
	})
	mux.HandleFunc("POST /api/event/desk/players", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			tournament.Player
			Entrant
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return r.Register(body.Player, body.Entrant)
	}))
	mux.HandleFunc("POST /api/event/desk/players/{no}/checkin", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		no, err := pathInt(req, "no")
		if err != nil {
			return nil, err
		}
		var body struct {
			Round int  `json:"round"`
			In    bool `json:"in"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return map[string]bool{"ok": true}, r.CheckIn(body.Round, no, body.In)
	}))
	mux.HandleFunc("POST /api/event/desk/players/{no}/bye", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		no, err := pathInt(req, "no")
		if err != nil {
			return nil, err
		}
		var body struct {
			Round  int    `json:"round"`
			Bye    string `json:"bye"` // half, zero, none
			Reason string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		bye, ok := map[string]tournament.Result{"half": tournament.HalfBye, "zero": tournament.ZeroBye, "none": tournament.None}[body.Bye]
		if !ok {
			return nil, fmt.Errorf("event: bye %q: want half, zero or none", body.Bye)
		}
		return map[string]bool{"ok": true}, r.RequestBye(body.Round, no, bye, body.Reason)
	}))
	mux.HandleFunc("POST /api/event/desk/settings", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var s Settings
		if err := decode(req, &s); err != nil {
			return nil, err
		}
		if err := r.Configure(s, "desk"); err != nil {
			return nil, err
		}
		return r.Desk(), nil
	}))
	mux.HandleFunc("POST /api/event/desk/seed", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			Reason string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return r.SeedFromExhibition(or(body.Reason, "seeded by the exhibition's ratings"))
	}))
	mux.HandleFunc("POST /api/event/sets", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			Set    string `json:"set"`
			Reason string `json:"reason"`
			// Key and Fingerprint enrol the set's key with it (Key ""
			// for the one it announces).
			Key         string `json:"key"`
			Fingerprint string `json:"fingerprint"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		reps, err := r.AddKeyedSet(body.Set, body.Key, body.Fingerprint, body.Reason)
		return map[string]any{"ok": err == nil, "boards": reps}, err
	}))
	mux.HandleFunc("GET /api/event/keys", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, r.Keys()) })
	mux.HandleFunc("POST /api/event/sets/{set}/key", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			Key         string `json:"key"`
			Fingerprint string `json:"fingerprint"`
			Reason      string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return r.EnrollKey(req.PathValue("set"), body.Key, body.Fingerprint, or(body.Reason, "enrolled at the desk"))
	}))
	mux.HandleFunc("POST /api/event/sets/{set}/key/forget", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			Reason string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return r.ForgetKey(req.PathValue("set"), or(body.Reason, "forgotten at the desk"))
	}))
	mux.HandleFunc("POST /api/event/sets/{set}/remove", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var body struct {
			Reason string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return map[string]bool{"ok": true}, r.RemoveSet(req.PathValue("set"), body.Reason)
	}))
	mux.HandleFunc("POST /api/event/rounds/{n}/boards/{b}/assign", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		n, b, err := roundBoard(req)
		if err != nil {
			return nil, err
		}
		var body struct {
			To     string `json:"to"`
			Reason string `json:"reason"`
		}
		if err := decode(req, &body); err != nil {
			return nil, err
		}
		return r.Assign(n, b, body.To, body.Reason)
	}))
	mux.HandleFunc("POST /api/event/exhibition", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		var x ExStart
		if err := decode(req, &x); err != nil {
			return nil, err
		}
		return r.StartExhibition(x, "desk")
	}))
	// The walk-up start: the players at a free set say who they are (their
	// festival ids) on the set's page; no token, and nothing but a free set
	// and two registered players is taken.
	mux.HandleFunc("POST /api/event/play/{set}", func(w http.ResponseWriter, req *http.Request) {
		req.Body = http.MaxBytesReader(w, req.Body, 4<<10)
		var body struct {
			White  string `json:"white"`
			Black  string `json:"black"`
			Engine int    `json:"engine"`
		}
		if err := decode(req, &body); err != nil {
			writeErr(w, err)
			return
		}
		set := req.PathValue("set")
		g, err := r.StartExhibition(ExStart{Set: set, White: body.White, Black: body.Black, Engine: body.Engine}, "players at "+set)
		if err != nil {
			writeErr(w, err)
			return
		}
		writeJSON(w, http.StatusOK, g)
	})
	mux.HandleFunc("POST /api/event/site", h.auth(func(w http.ResponseWriter, req *http.Request) (any, error) {
		if r.o.SiteDir == "" {
			return nil, fmt.Errorf("event: no results site (start the event with --site-dir)")
		}
		return map[string]string{"dir": r.o.SiteDir}, r.WriteSite(r.o.SiteDir)
	}))
}
