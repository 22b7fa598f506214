package blossom

import (
	"math/rand/v2"
	"testing"
)

// bruteForce returns the largest total weight of any matching.
func bruteForce(n int, edges []Edge) Weight {
	w := map[[2]int]Weight{}
	for _, e := range edges {
		w[[2]int{e.U, e.V}] = e.W
		w[[2]int{e.V, e.U}] = e.W
	}
	used := make([]bool, n)
	var best func(v int) Weight
	best = func(v int) Weight {
		for v < n && used[v] {
			v++
		}
		if v == n {
			return Weight{}
		}
		used[v] = true
		b := best(v + 1) // v unmatched
		for u := v + 1; u < n; u++ {
			if ew, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				if s := best(v + 1).Add(ew); b.Less(s) {
					b = s
				}
				used[u] = false
			}
		}
		used[v] = false
		return b
	}
	return best(0)
}

func total(t *testing.T, n int, edges []Edge, mate []int) Weight {
	t.Helper()
	w := map[[2]int]Weight{}
	for _, e := range edges {
		w[[2]int{e.U, e.V}] = e.W
		w[[2]int{e.V, e.U}] = e.W
	}
	var s Weight
	for v, u := range mate {
		if u < 0 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate not symmetric: %v", mate)
		}
		ew, ok := w[[2]int{v, u}]
		if !ok {
			t.Fatalf("%d-%d matched without an edge", v, u)
		}
		if v < u {
			s = s.Add(ew)
		}
	}
	return s
}

// On thousands of small random graphs (sparse and dense, small and wide
// weights, ties) the matching found weighs as much as the best matching
// found by trying every one.
func TestMatchAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.IntN(10)
		density := r.Float64()
		wide := trial%3 == 0
		var edges []Edge
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				if r.Float64() > density {
					continue
				}
				w := Int(int64(1 + r.IntN(8)))
				if wide {
					// Fields far apart, as the pairing lays out its criteria.
					w = Int(int64(r.IntN(3))).Shl(180).Add(Int(int64(r.IntN(5))).Shl(90)).Add(Int(int64(r.IntN(7))))
					if w.IsZero() {
						w = Int(1)
					}
				}
				edges = append(edges, Edge{u, v, w})
			}
		}
		mate := Match(n, edges)
		got, want := total(t, n, edges, mate), bruteForce(n, edges)
		if got != want {
			t.Fatalf("trial %d: n=%d edges=%v: matching weighs %v, best is %v (mate %v)", trial, n, edges, got, want, mate)
		}
	}
}

func TestMatchKnownCases(t *testing.T) {
	for _, tc := range []struct {
		n     int
		edges []Edge
		want  []int
	}{
		{2, []Edge{{0, 1, Int(1)}}, []int{1, 0}},
		{3, []Edge{{0, 1, Int(1)}, {1, 2, Int(2)}}, []int{-1, 2, 1}},
		{4, []Edge{{0, 1, Int(3)}, {1, 2, Int(4)}, {2, 3, Int(3)}}, []int{1, 0, 3, 2}},
		// A blossom 0-1-2 with a stem: the triangle must be opened.
		{6, []Edge{{0, 1, Int(8)}, {0, 2, Int(9)}, {1, 2, Int(10)}, {2, 3, Int(7)}, {0, 5, Int(5)}, {3, 4, Int(6)}}, []int{5, 2, 1, 4, 3, 0}},
		{0, nil, []int{}},
	} {
		got := Match(tc.n, tc.edges)
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Errorf("%v: %v, want %v", tc.edges, got, tc.want)
				break
			}
		}
	}
}

func TestWeightArithmetic(t *testing.T) {
	a := Int(5).Shl(200)
	b := Int(3).Shl(200)
	if a.Sub(b) != Int(2).Shl(200) || !b.Less(a) || !Int(-1).Less(Int(0)) || Int(-7).Half() != Int(-4) {
		t.Errorf("arithmetic: %v %v", a.Sub(b), Int(-7).Half())
	}
	if Int(-3).Add(Int(3)) != (Weight{}) || Int(1).Shl(64).Sub(Int(1)) != (Weight{^uint64(0)}) {
		t.Error("carries")
	}
}

func BenchmarkMatchDense200(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var edges []Edge
	for u := 0; u < 200; u++ {
		for v := u + 1; v < 200; v++ {
			edges = append(edges, Edge{u, v, Int(1).Shl(150).Add(Int(int64(r.IntN(1000))))})
		}
	}
	for b.Loop() {
		Match(200, edges)
	}
}
