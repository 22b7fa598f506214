package durable

import (
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
)

const (
	// HeadSize is the size of a record's header: "LLLLLLLL CCCCCCCC ".
	HeadSize = 18
	// MaxBody is the largest body a record may hold.
	MaxBody = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the CRC-32C of body, as a record's header holds it.
func Checksum(body []byte) uint32 { return crc32.Checksum(body, castagnoli) }

// Kind is what is wrong with a record.
type Kind uint8

// The kinds of damage, as doc.go describes them.
const (
	Torn Kind = 1 + iota
	Zeros
	Malformed
	BadLength
	BadChecksum
)

func (k Kind) String() string {
	switch k {
	case Torn:
		return "torn"
	case Zeros:
		return "trailing zeros"
	case Malformed:
		return "malformed"
	case BadLength:
		return "length out of range"
	case BadChecksum:
		return "checksum mismatch"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Corrupt is the first record of a log that is not valid.
type Corrupt struct {
	Kind   Kind
	Reason string // what is wrong, without the place: "truncated record (5 of 90 bytes)"
	Record int    // counted from 1 (0 from Decode, which does not know)
	Offset int64  // where it starts: the end of the last good record
	Bytes  int64  // from Offset to the end of the data
	Next   int64  // the offset of a valid record after it, or -1
	// Complete tells a damaged record from a torn write: the record was
	// written to its end (its length is reached, or the data ends with a
	// record's newline), so that its write returned and what it held may
	// have been acted on. A torn write (a short record, or one zero-filled
	// to the end of the data, as a power cut leaves it) is not complete.
	Complete bool
}

// Tail tells whether the damage is only at the end of the log: no valid
// record follows, and cutting the log back to Offset keeps every good one.
func (c *Corrupt) Tail() bool { return c.Next < 0 }

func (c *Corrupt) Error() string {
	s := c.Reason
	if c.Record > 0 {
		s = fmt.Sprintf("record %d at offset %d: %s", c.Record, c.Offset, s)
	}
	if !c.Tail() {
		s += fmt.Sprintf(", and a valid record follows at offset %d", c.Next)
	}
	return s
}

// Encode appends body to dst as one record.
func Encode(dst, body []byte) ([]byte, error) {
	if len(body) == 0 || len(body) > MaxBody {
		return dst, fmt.Errorf("record of %d bytes, want 1 to %d", len(body), MaxBody)
	}
	dst = slices.Grow(dst, HeadSize+len(body)+1)
	dst = appendHex(dst, uint32(len(body)))
	dst = append(dst, ' ')
	dst = appendHex(dst, Checksum(body))
	dst = append(dst, ' ')
	dst = append(dst, body...)
	return append(dst, '\n'), nil
}

const hexDigits = "0123456789abcdef"

func appendHex(dst []byte, v uint32) []byte {
	for shift := 28; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[v>>shift&0xf])
	}
	return dst
}

// parseHex reads 8 lower-case hex digits: upper case would let a flipped
// bit (0x20) pass unnoticed.
func parseHex(b []byte) (uint32, bool) {
	var v uint32
	for _, c := range b[:8] {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Decode reads the record at the start of data: its body and its size. The
// error is a *Corrupt with Record 0 and Offset 0.
func Decode(data []byte) (body []byte, n int, err error) {
	body, n, c := decode(data)
	if c != nil {
		c.Next = -1
		return nil, 0, c
	}
	return body, n, nil
}

func decode(data []byte) ([]byte, int, *Corrupt) {
	bad := func(k Kind, format string, args ...any) ([]byte, int, *Corrupt) {
		return nil, 0, &Corrupt{Kind: k, Reason: fmt.Sprintf(format, args...), Bytes: int64(len(data))}
	}
	if allZero(data) {
		return bad(Zeros, "zero-filled tail (%d bytes)", len(data))
	}
	if len(data) < HeadSize {
		return bad(Torn, "truncated record header (%d of %d bytes)", len(data), HeadSize)
	}
	size, ok1 := parseHex(data)
	sum, ok2 := parseHex(data[9:])
	if !ok1 || !ok2 || data[8] != ' ' || data[17] != ' ' {
		return bad(Malformed, "malformed record header")
	}
	if size == 0 || size > MaxBody {
		return bad(BadLength, "record length %d out of range (1 to %d)", size, MaxBody)
	}
	n := HeadSize + int(size) + 1
	if len(data) < n {
		return bad(Torn, "truncated record (%d of %d bytes)", len(data), n)
	}
	if data[n-1] != '\n' {
		return bad(Malformed, "record does not end where its length says")
	}
	body := data[HeadSize : n-1]
	if Checksum(body) != sum {
		return bad(BadChecksum, "checksum mismatch")
	}
	return body, n, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return len(b) > 0
}

// Record is a valid record found by Scan.
type Record struct {
	Offset int64
	Body   []byte // a slice of the data scanned
}

// Scan splits data, a whole log, into its valid records up to the first bad
// one. It returns them, the offset where they end, and the first bad record
// (nil when every byte belongs to a valid record).
func Scan(data []byte) (recs []Record, end int64, bad *Corrupt) {
	off := 0
	for off < len(data) {
		body, n, c := decode(data[off:])
		if c != nil {
			c.Record, c.Offset, c.Next = len(recs)+1, int64(off), -1
			c.Complete = complete(data[off:])
			if c.Kind != Zeros {
				c.Next = nextValid(data, off+1)
			}
			return recs, int64(off), c
		}
		recs = append(recs, Record{Offset: int64(off), Body: body})
		off += n
	}
	return recs, int64(off), nil
}

// complete tells whether tail, damaged data from the start of a record to
// the end of the log, holds a whole record (see Corrupt.Complete). A bit
// flip never zeroes the last byte (a newline has two bits set), and never
// shortens the data.
func complete(tail []byte) bool {
	switch last := tail[len(tail)-1]; {
	case last == 0:
		return false // zero-filled to the end: a write a power cut interrupted
	case last == '\n':
		return true
	case len(tail) < HeadSize:
		return false
	}
	size, ok := parseHex(tail)
	return ok && size > 0 && size <= MaxBody && len(tail) >= HeadSize+int(size)+1
}

// nextValid finds the first offset from from on where a valid record
// starts, or -1. It looks at every byte, so that a damaged length or newline
// does not hide the records after it.
func nextValid(data []byte, from int) int64 {
	for i := from; i+HeadSize < len(data); i++ {
		if data[i+8] != ' ' || data[i+17] != ' ' {
			continue
		}
		if _, _, c := decode(data[i:]); c == nil {
			return int64(i)
		}
	}
	return -1
}

// CutBackError is a failed append whose cut-back failed too: a partial
// record may remain at the end of the file, and nothing more may be appended
// until the log is opened (and scanned) again.
type CutBackError struct {
	Err error // the write or fsync error
	Cut error // the truncate or fsync error of the cut-back
}

func (e *CutBackError) Error() string {
	return fmt.Sprintf("%v; cutting back failed too (%v)", e.Err, e.Cut)
}

func (e *CutBackError) Unwrap() error { return e.Err }

// Append writes body as one record at the end of f, a log whose valid
// records take size bytes and which was opened with O_APPEND, and fsyncs it
// when sync is set. It returns the new size. When the write or the fsync
// fails it cuts f back to size and fsyncs it, and returns the error (the
// size is unchanged); when the cut-back fails too the error is a
// *CutBackError.
func Append(f File, size int64, body []byte, sync bool) (int64, error) {
	rec, err := Encode(nil, body)
	if err != nil {
		return size, err
	}
	_, err = f.Write(rec)
	if err == nil && sync {
		err = f.Sync()
	}
	if err != nil {
		if cerr := Truncate(f, size); cerr != nil {
			return size, &CutBackError{Err: err, Cut: cerr}
		}
		return size, err
	}
	return size + int64(len(rec)), nil
}

// IsCutBack tells whether err says that a failed append could not be cut
// back, so that the log must refuse further appends.
func IsCutBack(err error) bool {
	var c *CutBackError
	return errors.As(err, &c)
}
