package game

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tridboard/tridboard/internal/durable"
)

// mendGame opens a journal damaged in the middle (a bad sector, a flipped
// bit in a record that later ones follow): the damaged bytes are cut out,
// the records after them are kept as far as they replay (a lost move makes
// the moves after it unplayable: they are cut too), the whole file is
// copied aside first and the journal rewritten from the records kept.
// Recovered reports what was cut; the seqs the cut records may have used
// are skipped (the damaged records were complete: they may have been
// published). A damaged header is no game: midErr, the scan's error.
func mendGame(stateDir, id, path string, data []byte, o Opts, midErr error) (*Session, error) {
	var recs []rawRecord
	firstBad, firstOff, reason := -1, int64(0), ""
	off := int64(0)
	for {
		rs, _, bad := durable.Scan(data[off:])
		for _, r := range rs {
			recs = append(recs, rawRecord{int(off + r.Offset), r.Body})
		}
		if bad == nil {
			break
		}
		if firstBad < 0 {
			firstBad, firstOff, reason = len(recs), off+bad.Offset, bad.Reason
		}
		if bad.Tail() {
			break
		}
		off += bad.Next
	}
	if firstBad < 1 {
		return nil, midErr // the header is damaged
	}
	s := &Session{opts: o, dir: stateDir}
	if err := s.replay(path, id, recs[:firstBad]); err != nil {
		return nil, err
	}
	kept := recs[:firstBad]
	for _, r := range recs[firstBad:] {
		e, err := decode(r.body)
		if err != nil || s.replayEntry(e) != nil {
			break // it followed from what was lost: so do the rest
		}
		kept = append(kept, r)
	}
	var clean []byte
	for _, r := range kept {
		var err error
		if clean, err = durable.Encode(clean, r.body); err != nil {
			return nil, fmt.Errorf("game: journal %s: %w", path, err)
		}
	}
	// What was lost: the bytes of the journal that are not kept.
	var lost []byte
	keptAt := map[int]bool{}
	for _, r := range kept {
		keptAt[r.off] = true
	}
	for i := int(firstOff); i < len(data); {
		if keptAt[i] {
			_, n, _ := frame(data[i:])
			i += n
			continue
		}
		lost = append(lost, data[i])
		i++
	}
	aside := fmt.Sprintf("%s.damaged-%s", path, formatID(o.now()))
	d := &Damage{Path: path, Record: firstBad + 1, Offset: firstOff, Lost: int64(len(data) - len(clean)),
		Reason: fmt.Sprintf("%s in the middle (%d records after it kept)", reason, len(kept)-firstBad),
		What:   describe(lost), Aside: aside, Complete: true, Seqs: max(1, bytes.Count(lost, []byte{'\n'}))}
	if err := durable.WriteFile(aside, data); err != nil {
		return nil, fmt.Errorf("%v; saving it aside: %w", d, err)
	}
	if err := durable.WriteAtomic(path, clean); err != nil {
		return nil, fmt.Errorf("%v; rewriting it: %w", d, err)
	}
	if err := durable.SyncDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("%v; syncing its directory: %w", d, err)
	}
	f, err := o.open(path, os.O_RDWR|os.O_APPEND)
	if err != nil {
		return nil, fmt.Errorf("game: open: %w", err)
	}
	s.j = &journal{path: path, f: f, size: int64(len(clean)), records: len(kept)}
	s.damage = d
	if err := s.skipPublished(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}
