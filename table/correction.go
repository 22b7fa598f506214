package table

// clockCorrect sets the clock for a change of mind (a Corrected event):
// the withdrawn move's reading is taken back and the move made instead
// charged from the start of the mover's turn to its own completion, as if
// the withdrawn move had never been made (the other side's clock did not
// run for it). It reports whether the job goes to the journal: false when
// the flag fell first (clockMove).
func (t *Table) clockCorrect(jb *job) bool {
	c := t.ck.clk
	if c == nil || t.ck.stopped || !c.Started() {
		return t.clockMove(jb)
	}
	rs := c.Readings()
	if len(rs) < 2 {
		return t.clockMove(jb)
	}
	withdrawnAt, turnStart := rs[len(rs)-1].At, rs[len(rs)-2].At
	if err := c.TakeBack(withdrawnAt); err != nil {
		t.log.Warn("clock", "correction", err)
		return t.clockMove(jb)
	}
	// TakeBack gives the turn's time before the withdrawn move back: it
	// is the mover's.
	mover := jb.ev.Before.Turn()
	if d := withdrawnAt.Sub(turnStart); d > 0 {
		if err := c.Add(withdrawnAt, mover, -d); err != nil {
			t.log.Warn("clock", "correction", err)
		}
	}
	return t.clockMove(jb)
}
