// Package durable is the append-only, checksummed, fsync'd log that the game
// journal and the MQTT outbox both keep, and the few file operations that go
// with it: cutting a log back, copying a damaged one aside, replacing a file
// atomically and syncing a directory.
//
// # Framing
//
// A log is a sequence of records, one a line:
//
//	LLLLLLLL SP CCCCCCCC SP BODY LF
//
// LLLLLLLL is the length of BODY and CCCCCCCC its CRC-32C (Castagnoli), each
// as exactly 8 lower-case hex digits; SP is one space and LF one newline. A
// body holds 1 to MaxBody bytes. The framing goes by the length, so a body
// may hold any bytes, but both users write one JSON object, which never holds
// a raw newline: a log reads as text, one record a line, and `cut -c19-`
// gives the JSON. A record takes HeadSize+len(BODY)+1 bytes.
//
// # Damage
//
// Scan reads a whole log and stops at the first record that is not valid,
// reporting it as a *Corrupt with its offset (the end of the last good
// record), its number and its Kind:
//
//   - Torn: the data ends inside the record (a write cut short).
//   - Zeros: only zero bytes from there to the end (what some file systems
//     show where a power cut interrupted a write).
//   - Malformed: the header is not in the format above, or the record does
//     not end with a newline where its length says.
//   - BadLength: a length of 0 or over MaxBody.
//   - BadChecksum: the body does not match its CRC-32C.
//
// It then searches every later byte offset for a valid record, so that a
// damaged length or newline cannot hide the records after it. When none is
// found the damage is only at the tail (Corrupt.Tail): a write that never
// completed, and the good prefix can be kept by cutting the log back
// (CutTail). Corrupt.Complete then tells the two tails apart: a torn write
// (a short record, or zeros to the end) never returned, so nothing it held
// was acted on; a complete record that is damaged (a flipped bit, a bad
// sector) was written to its end, fsync'd perhaps, and what it held may
// have been published: the caller must not hand its place out again as if
// it had never been (the game journal burns its seqs). When one is found (Corrupt.Next) a record in the middle is
// damaged, which is not silently recoverable: the caller decides.
//
// # Writes
//
// Append writes one record at the end of a File opened with O_APPEND, and
// fsyncs it if asked. When the write or the fsync fails it cuts the file back
// to its last good size (and fsyncs that), so that no partial record stays
// before the next one; when that fails too it returns a *CutBackError and the
// caller must stop appending.
package durable
