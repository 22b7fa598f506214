package broker

import (
	"context"
	"log/slog"
)

// mochiLog is the logger the embedded broker's library (mochi) writes to:
// log, with mochi's info lines (hooks added, listeners attached, server
// started and stopped, clients coming and going) passed down to debug, so
// that at the daemon's default level, info, its journal shows tridboard's
// own lines; mochi's warnings and errors stay as they are.
func mochiLog(log *slog.Logger) *slog.Logger {
	return slog.New(demoted{log.Handler()})
}

// demoted hands records below slog.LevelWarn to h as debug records.
type demoted struct{ h slog.Handler }

func lower(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return min(l, slog.LevelDebug)
	}
	return l
}

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool {
	return d.h.Enabled(ctx, lower(l))
}

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	r.Level = lower(r.Level)
	return d.h.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler { return demoted{d.h.WithAttrs(as)} }
func (d demoted) WithGroup(name string) slog.Handler    { return demoted{d.h.WithGroup(name)} }
