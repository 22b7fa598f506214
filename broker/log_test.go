package broker

import (
	"log/slog"
	"strings"
	"testing"
)

// At info the broker's start and stop write nothing of mochi's own (its
// "added hook", "attached listener", "mochi mqtt server started" lines);
// at debug they are there, as debug lines.
func TestBrokerLogsMochiBelowInfo(t *testing.T) {
	for _, tc := range []struct {
		level slog.Level
		mochi bool
	}{{slog.LevelInfo, false}, {slog.LevelDebug, true}} {
		var buf logBuf
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level}))
		b, err := Start(Opts{Addr: "127.0.0.1:0", Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		out := buf.String()
		for _, line := range []string{`msg="mochi mqtt server started"`, `msg="attached listener"`, `msg="added hook"`} {
			if got := strings.Contains(out, "level=DEBUG "+line); got != tc.mochi {
				t.Errorf("at %v: a debug line %s: %v, want %v:\n%s", tc.level, line, got, tc.mochi, out)
			}
		}
		if strings.Contains(out, "level=INFO msg=\"mochi") || strings.Contains(out, "level=INFO msg=\"added hook") {
			t.Errorf("at %v: mochi's lines at info:\n%s", tc.level, out)
		}
	}
}

// Warnings and errors keep their level; below info stays below.
func TestMochiLogLevels(t *testing.T) {
	for in, want := range map[slog.Level]slog.Level{
		slog.LevelError: slog.LevelError, slog.LevelWarn: slog.LevelWarn,
		slog.LevelInfo: slog.LevelDebug, slog.LevelDebug: slog.LevelDebug, slog.LevelDebug - 4: slog.LevelDebug - 4,
	} {
		if got := lower(in); got != want {
			t.Errorf("lower(%v) = %v, want %v", in, got, want)
		}
	}
}
