package blossom

import (
	"math/bits"
	"strconv"
)

// Words is the size of a Weight in 64-bit words.
const Words = 4

// Bits is the number of bits a Weight holds, its sign included.
const Bits = 64 * Words

// Weight is a signed integer of Bits bits (two's complement, least
// significant word first): wide enough for a pairing's criteria laid side
// by side, each in its own field, so that one sum compares them in order.
type Weight [Words]uint64

// Int returns n as a Weight.
func Int(n int64) Weight {
	var w Weight
	w[0] = uint64(n)
	if n < 0 {
		for i := 1; i < Words; i++ {
			w[i] = ^uint64(0)
		}
	}
	return w
}

// Add returns a + b.
func (a Weight) Add(b Weight) Weight {
	var c uint64
	for i := 0; i < Words; i++ {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
	return a
}

// Sub returns a - b.
func (a Weight) Sub(b Weight) Weight {
	var c uint64
	for i := 0; i < Words; i++ {
		a[i], c = bits.Sub64(a[i], b[i], c)
	}
	return a
}

// Neg reports whether a < 0.
func (a Weight) Neg() bool { return int64(a[Words-1]) < 0 }

// Cmp returns -1, 0 or 1 as a is less than, equal to or greater than b.
func (a Weight) Cmp(b Weight) int {
	if x, y := int64(a[Words-1]), int64(b[Words-1]); x != y {
		if x < y {
			return -1
		}
		return 1
	}
	for i := Words - 2; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Less reports whether a < b.
func (a Weight) Less(b Weight) bool { return a.Cmp(b) < 0 }

// IsZero reports whether a == 0.
func (a Weight) IsZero() bool { return a == Weight{} }

// Half returns a / 2, rounded towards minus infinity.
func (a Weight) Half() Weight {
	for i := 0; i < Words-1; i++ {
		a[i] = a[i]>>1 | a[i+1]<<63
	}
	a[Words-1] = uint64(int64(a[Words-1]) >> 1)
	return a
}

// Shl returns a shifted left by n bits (a times 2^n).
func (a Weight) Shl(n int) Weight {
	for ; n >= 64; n -= 64 {
		copy(a[1:], a[:Words-1])
		a[0] = 0
	}
	if n == 0 {
		return a
	}
	for i := Words - 1; i > 0; i-- {
		a[i] = a[i]<<n | a[i-1]>>(64-n)
	}
	a[0] <<= n
	return a
}

// String writes a in hexadecimal (for tests and errors).
func (a Weight) String() string {
	if a.Neg() {
		return "-" + Weight{}.Sub(a).String()
	}
	s := ""
	for i := Words - 1; i >= 0; i-- {
		if s == "" && a[i] == 0 && i > 0 {
			continue
		}
		h := strconv.FormatUint(a[i], 16)
		if s != "" {
			for len(h) < 16 {
				h = "0" + h
			}
		}
		s += h
	}
	return "0x" + s
}
