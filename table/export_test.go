package table

// SlowJournal makes o's journal run f before each write (a slow disk).
func SlowJournal(o *Opts, f func()) { o.slowJournal = f }

// JournalPending is how many changes wait for the journal (the table's
// goroutine owns it: call it between Ticks).
func JournalPending(t *Table) int { return t.jr.pending }

// JournalDone reports whether the journal has a result for the table to
// apply at its next Tick.
func JournalDone(t *Table) bool { return len(t.jr.results) > 0 }
