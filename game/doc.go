// Package game is the game session: the position, the history, the result
// and the fsync'd journal of one game, and its export as a game record.
//
// # Session
//
// New starts a game in a state directory and makes it current; Open resumes
// the current game after a restart. A Session takes moves (Play,
// PlayNotation), take-backs, resignations, draw offers, answers and claims,
// and ends the game by itself on checkmate, stalemate or a dead position.
// Each change is appended to the journal and fsync'd before it takes effect
// and before the method returns: whatever a method returned is on disk and
// may be published. A refused command changes nothing.
//
// Each accepted move is a Move (seq, game id, long form, short notation,
// position after, time), whose fields are those of protocol.Move. Seqs count the
// game's moves from 1 and never repeat: after a take-back the next move gets
// the next seq.
//
// # Journal
//
// <state>/games/<id>.journal is append-only, one record a line:
//
//	LLLLLLLL CCCCCCCC {json}\n
//
// LLLLLLLL is the JSON body's length and CCCCCCCC its CRC-32C (Castagnoli),
// each as 8 hex digits. The first record is the header (format version, game
// id, system, start position, tags, time); then come moves (seq, long form,
// short notation, position after, time), take-backs (the seq taken back),
// draw offers and declines, arbiters' clock changes, skipped seqs, and results (resignation, agreement, claims) with
// the side acting. Results decided by the position are not written: replay
// finds them again. <state>/current names the game in progress; it is
// replaced atomically (temporary file, fsync, rename, directory fsync).
//
// Open replays every record through the rules and refuses (a *JournalError
// naming the record and its offset) a record that does not replay, or a bad
// record followed by good ones. A bad tail (a torn write, zeros after a power
// cut) is cut off: the file is copied to <id>.journal.damaged-<time>, the
// journal is cut back to its last good record, and Recovered reports a
// *Damage (offset, bytes lost, what they seem to hold). A record torn by a
// power cut was never fully fsync'd, so its method never returned and its
// move was never published: the next move takes its seq again. A complete
// record damaged afterwards (a flipped bit, a bad sector) is another matter:
// its move may have been published, and a display that applied it would
// drop a new move with the same seq. Open then skips the seqs the cut
// records may have used, and those up to the highest the MQTT outbox knows
// (Opts.Published), with a skip record in the journal; Skipped reports it.
// Seqs therefore never repeat, but may have gaps.
//
// Opts.ReadOnly opens a journal only to read it (tridboard export, while
// the daemon writes it): nothing is created, written, cut or copied, a
// damaged tail (perhaps a record being written) is left alone, and every
// change is refused with ErrReadOnly.
//
// Game ids are UTC times to the millisecond, 20250102-030405-123, later than
// every game in the directory, so they sort by creation even when the clock
// went back. Finished games stay in the directory: Games lists them and
// OpenGame opens one by id (to export it, say).
package game
