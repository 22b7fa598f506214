package table

import (
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
)

// A job is a change of the game to make durable: a move or a take-back the
// recognizer saw. The worker runs jobs in order; after one fails, the rest
// of its generation are skipped (they followed from it).
type job struct {
	gen  int
	kind Kind // Moved, TookBack or Corrected
	ev   recognize.Event
	sess *game.Session
	// at is when a move was completed; reading the clock after it (clock.go).
	at      time.Time
	reading *clock.Reading
}

type result struct {
	*job
	move      game.Move
	withdrawn game.Move // Corrected: the move taken back
	err       error
	skipped   bool
}

// journal runs jobs on its own goroutine, so that an fsync never holds up
// the scan loop.
type journal struct {
	jobs    chan *job
	results chan result
	pending int // jobs handed out and not yet applied (loop-owned)
	// slow, when set (tests), runs before each job or batch of moves: a
	// slow disk's fsync.
	slow func()
}

// journalQueue bounds the moves waiting for the disk; beyond it the scan
// loop waits (hundreds of moves behind: the disk is gone). journalBatch
// bounds the moves one fsync makes durable.
const (
	journalQueue = 256
	journalBatch = 32
)

func newJournal(slow func()) *journal {
	j := &journal{jobs: make(chan *job, journalQueue), results: make(chan result, journalQueue), slow: slow}
	go j.run()
	return j
}

func (j *journal) run() {
	failed := -1
	var next *job
	for {
		jb := next
		next = nil
		if jb == nil {
			var ok bool
			if jb, ok = <-j.jobs; !ok {
				break
			}
		}
		// Moves waiting behind it, of the same game and generation, go
		// with it under one fsync (a slow disk falls no further behind
		// than one fsync).
		batch := []*job{jb}
	collect:
		for jb.kind == Moved && len(batch) < journalBatch {
			select {
			case nb, ok := <-j.jobs:
				if !ok {
					break collect
				}
				if nb.kind == Moved && nb.gen == jb.gen && nb.sess == jb.sess {
					batch = append(batch, nb)
					continue
				}
				next = nb
			default:
			}
			break
		}
		failed = j.do(batch, failed)
	}
	close(j.results)
}

// do makes a batch durable and reports each job's result; it returns the
// generation that failed (failed, unless this batch did).
func (j *journal) do(batch []*job, failed int) int {
	if batch[0].gen == failed {
		for _, jb := range batch {
			j.results <- result{job: jb, skipped: true}
		}
		return failed
	}
	if j.slow != nil {
		j.slow()
	}
	if len(batch) == 1 {
		jb := batch[0]
		r := result{job: jb}
		switch jb.kind {
		case Moved:
			r.move, r.err = jb.sess.PlayAt(jb.ev.Move, jb.at, jb.reading)
		case TookBack:
			r.move, r.err = jb.sess.TakeBack()
		case Corrected:
			// Two records: a restart replays the corrected game.
			if r.withdrawn, r.err = jb.sess.TakeBack(); r.err == nil {
				r.move, r.err = jb.sess.PlayAt(jb.ev.Move, jb.at, jb.reading)
			}
		}
		if r.err != nil {
			failed = jb.gen
		}
		j.results <- r
		return failed
	}
	moves := make([]game.Timed, len(batch))
	for i, jb := range batch {
		moves[i] = game.Timed{Move: jb.ev.Move, At: jb.at, Clock: jb.reading}
	}
	played, err := batch[0].sess.PlayAtMany(moves)
	for i, jb := range batch {
		r := result{job: jb}
		switch {
		case i < len(played):
			r.move = played[i]
		case i == len(played):
			r.err, failed = err, jb.gen
		default:
			r.skipped = true // it followed from the one refused
		}
		j.results <- r
	}
	return failed
}

func (j *journal) put(jb *job) {
	j.pending++
	j.jobs <- jb
}

// ready returns a finished job without waiting, or false.
func (j *journal) ready() (result, bool) {
	if j.pending == 0 {
		return result{}, false
	}
	select {
	case r := <-j.results:
		j.pending--
		return r, true
	default:
		return result{}, false
	}
}

// next waits for the next finished job, at most wait.
func (j *journal) next(wait time.Duration) (result, bool) {
	if j.pending == 0 {
		return result{}, false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case r := <-j.results:
		j.pending--
		return r, true
	case <-t.C:
		return result{}, false
	}
}

func (j *journal) close() { close(j.jobs) }
