package mqtt

import (
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/trust"
)

// Issue 34: a set told its senders takes only their signed commands, each
// once, within the window; what it takes reaches the game without the
// signature.
func TestCommandAuth(t *testing.T) {
	runner, _ := trust.NewKey()
	forger, _ := trust.NewKey()
	ring, _ := trust.OpenRing("")
	ring.Enroll("event", runner.Public())
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	a := &CommandAuth{Senders: ring, Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	sign := func(k *trust.Key, board, name, body string) []byte {
		p, err := k.Seal(board, CommandKind(name), []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ts := `"ts":"` + now.Format(time.RFC3339Nano) + `"`
	good := sign(runner, "enterprise", "resign", `{"side":"white",`+ts+`}`)
	steps := []struct {
		name, board, cmd string
		payload          []byte
		want             string // "" taken, else in the error
	}{
		{"the runner's command", "enterprise", "resign", good, ""},
		{"the same again", "enterprise", "resign", good, "replayed"},
		{"unsigned, with a token", "enterprise", "resign", []byte(`{"side":"white","token":"hall"}`), "unsigned command"},
		{"signed by another key", "enterprise", "resign", sign(forger, "enterprise", "resign", `{"side":"white",`+ts+`}`), "may not command this set"},
		{"signed for another set", "enterprise", "resign", sign(runner, "klingon", "resign", `{"side":"white",`+ts+`}`), "bad signature"},
		{"signed as another command", "enterprise", "resign", sign(runner, "enterprise", "draw", `{"side":"white",`+ts+`}`), "bad signature"},
		{"without a time", "enterprise", "resign", sign(runner, "enterprise", "resign", `{"side":"white"}`), `no valid "ts"`},
		{"held back two minutes", "enterprise", "resign", sign(runner, "enterprise", "resign",
			`{"side":"white","ts":"`+now.Add(-2*time.Minute).Format(time.RFC3339Nano)+`"}`), "more than 1m0s from now"},
		{"the runner's next command", "enterprise", "draw", sign(runner, "enterprise", "draw", `{"action":"offer","side":"white",`+ts+`}`), ""},
	}
	for _, st := range steps {
		body, sender, err := a.Check(st.board, st.cmd, st.payload)
		switch {
		case st.want == "" && err != nil:
			t.Errorf("%s: %v", st.name, err)
		case st.want == "" && (sender != "event" || strings.Contains(string(body), "ts") || strings.Contains(string(body), "sig")):
			t.Errorf("%s: sender %q, body %s", st.name, sender, body)
		case st.want != "" && (err == nil || !strings.Contains(err.Error(), st.want)):
			t.Errorf("%s: %v, want an error with %q", st.name, err, st.want)
		}
	}
	if got := a.Refused(); got != 7 {
		t.Errorf("refused %d, want 7", got)
	}
	if _, _, err := a.Check("enterprise", "resign", []byte(strings.Repeat(" ", trust.DefaultMaxSize+1))); !errors.Is(err, trust.ErrTooLarge) {
		t.Errorf("an oversized command: %v", err)
	}
}

// A set that restarts still refuses a command it ran before (the counters
// are kept in SeenFile).
func TestCommandAuthKeepsCountersAcrossRestarts(t *testing.T) {
	runner, _ := trust.NewKey()
	ring, _ := trust.OpenRing("")
	ring.Enroll("event", runner.Public())
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	seen := filepath.Join(t.TempDir(), "command_seen.json")
	auth := func() *CommandAuth {
		return &CommandAuth{Senders: ring, Now: func() time.Time { return now }, SeenFile: seen,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	}
	cmd, _ := runner.Seal("enterprise", CommandKind("resync"), []byte(`{"ts":"`+now.Format(time.RFC3339Nano)+`"}`))
	if _, _, err := auth().Check("enterprise", "resync", cmd); err != nil {
		t.Fatal(err)
	}
	if _, _, err := auth().Check("enterprise", "resync", cmd); !errors.Is(err, trust.ErrReplay) {
		t.Errorf("after a restart the same command: %v, want a replay", err)
	}
}
