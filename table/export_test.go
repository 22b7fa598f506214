package table

// SlowJournal makes o's journal run f before each write (a slow disk).
func SlowJournal(o *Opts, f func()) { o.slowJournal = f }
