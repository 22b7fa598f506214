package trust

import (
	"fmt"
	"strings"
	"testing"
)

// stateOf is a state-sized payload of n moves (about 40 bytes a move).
func stateOf(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"v":1,"game":"20261205-100000-1","moves":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"b%dW-b%dN"`, i%8, i%8)
	}
	b.WriteString(`],"result":"*","clk_ms":[1,2,3]}`)
	return []byte(b.String())
}

// The cost of signing a state (the set, at every change) and of checking
// it (every reader, at every state).
func BenchmarkSeal(b *testing.B) {
	k, _ := NewKey()
	for _, n := range []int{10, 300} {
		body := stateOf(n)
		b.Run(fmt.Sprintf("moves=%d/bytes=%d", n, len(body)), func(b *testing.B) {
			for b.Loop() {
				if _, err := k.Seal("enterprise", "state", body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCheck(b *testing.B) {
	k, _ := NewKey()
	ring, _ := OpenRing("")
	ring.Enroll("enterprise", k.Public())
	o := DefaultCheckerOpts(ring)
	o.Ordered = map[string]bool{}
	c := NewChecker(o)
	for _, n := range []int{10, 300} {
		p, _ := k.Seal("enterprise", "state", stateOf(n))
		b.Run(fmt.Sprintf("moves=%d/bytes=%d", n, len(p)), func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Check("enterprise", "state", p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
