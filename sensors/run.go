package sensors

import (
	"context"
	"time"
)

// Run scans every Opts.Period until ctx is done, calling fn with the
// snapshot and the events of each scan that changed something (fn runs on
// the scanning goroutine and must return quickly; the events slice is
// reused). Periods follow a time.Ticker: they do not drift, and a late scan
// makes Run skip the periods it missed (counted in Stats.Skipped) instead of
// scanning in a burst. Run returns ctx.Err().
func (s *Scanner) Run(ctx context.Context, fn func(Snapshot, []Event)) error {
	period := s.opts.Period
	tk := time.NewTicker(period)
	defer tk.Stop()
	last := time.Now()
	if s.Scan(last) && fn != nil {
		fn(s.Snapshot(), s.events)
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tk.C:
			now := time.Now()
			if gap := now.Sub(last); gap > period+period/2 {
				s.mu.Lock()
				s.stats.Skipped += uint64((gap+period/2)/period) - 1
				s.mu.Unlock()
			}
			last = now
			if s.Scan(now) && fn != nil {
				fn(s.Snapshot(), s.events)
			}
		}
	}
}
