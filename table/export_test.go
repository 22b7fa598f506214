package table

// SlowJournal makes o's journal run f before each write, of one change or a
// batch of moves (a slow disk's fsync).
func SlowJournal(o *Opts, f func()) { o.slowJournal = f }

// JournalPending is how many changes wait for the journal (the table's
// goroutine owns it: call it between Ticks).
func JournalPending(t *Table) int { return t.jr.pending }

// JournalDone is how many of the changes waiting the journal has a result
// for, to apply at the next Tick.
func JournalDone(t *Table) int { return len(t.jr.results) }

// SlowHintSearch makes o's hint searches run f first, on the goroutine
// that searches (an engine that thinks as long as the test wants).
func SlowHintSearch(o *Opts, f func()) { o.slowHint = f }
