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
	kind Kind // Moved or TookBack
	ev   recognize.Event
	sess *game.Session
	// at is when a move was completed; reading the clock after it (clock.go).
	at      time.Time
	reading *clock.Reading
}

type result struct {
	*job
	move    game.Move
	err     error
	skipped bool
}

// journal runs jobs on its own goroutine, so that an fsync never holds up
// the scan loop.
type journal struct {
	jobs    chan *job
	results chan result
	pending int // jobs handed out and not yet applied (loop-owned)
	// slow, when set (tests), runs before each job: a slow disk.
	slow func()
}

// journalQueue bounds the moves waiting for the disk; beyond it the scan
// loop waits (hundreds of moves behind: the disk is gone).
const journalQueue = 256

func newJournal(slow func()) *journal {
	j := &journal{jobs: make(chan *job, journalQueue), results: make(chan result, journalQueue), slow: slow}
	go j.run()
	return j
}

func (j *journal) run() {
	failed := -1
	for jb := range j.jobs {
		r := result{job: jb}
		if jb.gen == failed {
			r.skipped = true
		} else {
			if j.slow != nil {
				j.slow()
			}
			switch jb.kind {
			case Moved:
				r.move, r.err = jb.sess.PlayAt(jb.ev.Move, jb.at, jb.reading)
			case TookBack:
				r.move, r.err = jb.sess.TakeBack()
			}
			if r.err != nil {
				failed = jb.gen
			}
		}
		j.results <- r
	}
	close(j.results)
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
