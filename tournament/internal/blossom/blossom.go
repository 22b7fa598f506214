package blossom

// Edge joins vertices U and V (0 <= U, V < n, U != V) with weight W.
type Edge struct {
	U, V int
	W    Weight
}

// Match returns a maximum-weight matching of the graph of n vertices and
// edges: mate[v] is v's partner, or -1. Edges of weight <= 0 are never
// needed and may be left out; at most one edge should join two vertices.
func Match(n int, edges []Edge) []int {
	m := newMatcher(n, edges)
	m.run()
	mate := make([]int, n)
	for v := range mate {
		mate[v] = -1
		if p := m.mate[v]; p >= 0 {
			mate[v] = m.endpoint[p]
		}
	}
	return mate
}

// The matcher's state. Vertices are 0..n-1; blossoms n..2n-1. Every edge
// k has two endpoints, 2k (its U) and 2k+1 (its V): p^1 is the other end
// of endpoint p, and mate[v] is the endpoint at the far side of v's
// matched edge. Labels: 0 free, 1 S (outer), 2 T (inner).
type matcher struct {
	n        int
	edges    []Edge
	w2       []Weight // edge weights, doubled so that duals stay whole
	endpoint []int
	neighbor [][]int // per vertex, the endpoints at the far side of its edges

	mate      []int
	label     []int
	labelEnd  []int
	inBlossom []int
	parent    []int
	childs    [][]int
	base      []int
	endps     [][]int
	bestEdge  []int
	bestEdges [][]int
	hasBest   []bool
	unused    []int
	dual      []Weight
	allowEdge []bool
	queue     []int
}

func newMatcher(n int, edges []Edge) *matcher {
	m := &matcher{n: n, edges: edges}
	m.w2 = make([]Weight, len(edges))
	m.endpoint = make([]int, 2*len(edges))
	m.neighbor = make([][]int, n)
	var maxW Weight
	for k, e := range edges {
		m.w2[k] = e.W.Add(e.W)
		if maxW.Less(m.w2[k]) {
			maxW = m.w2[k]
		}
		m.endpoint[2*k], m.endpoint[2*k+1] = e.U, e.V
		m.neighbor[e.U] = append(m.neighbor[e.U], 2*k+1)
		m.neighbor[e.V] = append(m.neighbor[e.V], 2*k)
	}
	m.mate = fill(make([]int, n), -1)
	m.label = make([]int, 2*n)
	m.labelEnd = fill(make([]int, 2*n), -1)
	m.inBlossom = make([]int, n)
	for v := range m.inBlossom {
		m.inBlossom[v] = v
	}
	m.parent = fill(make([]int, 2*n), -1)
	m.childs = make([][]int, 2*n)
	m.base = fill(make([]int, 2*n), -1)
	for v := 0; v < n; v++ {
		m.base[v] = v
	}
	m.endps = make([][]int, 2*n)
	m.bestEdge = fill(make([]int, 2*n), -1)
	m.bestEdges = make([][]int, 2*n)
	m.hasBest = make([]bool, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]Weight, 2*n)
	for v := 0; v < n; v++ {
		m.dual[v] = maxW
	}
	m.allowEdge = make([]bool, len(edges))
	return m
}

func fill(s []int, v int) []int {
	for i := range s {
		s[i] = v
	}
	return s
}

// slack is the edge's reduced cost: dual(u) + dual(v) - 2w.
func (m *matcher) slack(k int) Weight {
	e := m.edges[k]
	return m.dual[e.U].Add(m.dual[e.V]).Sub(m.w2[k])
}

// leaves returns the vertices inside blossom b.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, c := range m.childs[b] {
		out = m.leaves(c, out)
	}
	return out
}

// assignLabel labels the top blossom of w with t, reached through
// endpoint p; an inner (T) blossom labels its mate outer (S).
func (m *matcher) assignLabel(w, t, p int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = t, t
	m.labelEnd[w], m.labelEnd[b] = p, p
	m.bestEdge[w], m.bestEdge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
		return
	}
	base := m.base[b]
	mb := m.mate[base]
	m.assignLabel(m.endpoint[mb], 1, mb^1)
}

// scanBlossom walks up the alternating trees from v and w: it returns the
// base of a new blossom when they meet, or -1 when they belong to two
// trees (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inBlossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEnd[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelEnd[b]]
			b = m.inBlossom[v]
			v = m.endpoint[m.labelEnd[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// addBlossom makes a blossom of the odd cycle closed by edge k, whose
// base is base.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].U, m.edges[k].V
	bb, bv, bw := m.inBlossom[base], m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelEnd[bv])
		v = m.endpoint[m.labelEnd[bv]]
		bv = m.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelEnd[bw]^1)
		w = m.endpoint[m.labelEnd[bw]]
		bw = m.inBlossom[w]
	}
	m.childs[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelEnd[b] = m.labelEnd[bb]
	m.dual[b] = Weight{}
	for _, v := range m.leaves(b, nil) {
		if m.label[m.inBlossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inBlossom[v] = b
	}
	// The least-slack edge from the new blossom to every other S blossom.
	bestTo := fill(make([]int, 2*m.n), -1)
	for _, c := range path {
		var lists [][]int
		if !m.hasBest[c] {
			for _, u := range m.leaves(c, nil) {
				ks := make([]int, 0, len(m.neighbor[u]))
				for _, p := range m.neighbor[u] {
					ks = append(ks, p/2)
				}
				lists = append(lists, ks)
			}
		} else {
			lists = [][]int{m.bestEdges[c]}
		}
		for _, ks := range lists {
			for _, k := range ks {
				i, j := m.edges[k].U, m.edges[k].V
				if m.inBlossom[j] == b {
					i, j = j, i
				}
				_ = i
				bj := m.inBlossom[j]
				if bj != b && m.label[bj] == 1 && (bestTo[bj] == -1 || m.slack(k).Less(m.slack(bestTo[bj]))) {
					bestTo[bj] = k
				}
			}
		}
		m.bestEdges[c], m.hasBest[c] = nil, false
		m.bestEdge[c] = -1
	}
	var best []int
	for _, k := range bestTo {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.bestEdges[b], m.hasBest[b] = best, true
	m.bestEdge[b] = -1
	for _, k := range best {
		if m.bestEdge[b] == -1 || m.slack(k).Less(m.slack(m.bestEdge[b])) {
			m.bestEdge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// at indexes s cyclically (negative j counts from the end).
func at(s []int, j int) int {
	l := len(s)
	return s[((j%l)+l)%l]
}

func index(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// expandBlossom dissolves blossom b into its children; during a stage an
// inner blossom's children on the path of its label are relabelled.
func (m *matcher) expandBlossom(b int, endStage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inBlossom[s] = s
		case endStage && m.dual[s].IsZero():
			m.expandBlossom(s, endStage)
		default:
			for _, v := range m.leaves(s, nil) {
				m.inBlossom[v] = s
			}
		}
	}
	if !endStage && m.label[b] == 2 {
		childs, endps := m.childs[b], m.endps[b]
		entry := m.inBlossom[m.endpoint[m.labelEnd[b]^1]]
		j := index(childs, entry)
		var step, trick int
		if j&1 != 0 {
			j -= len(childs)
			step, trick = 1, 0
		} else {
			step, trick = -1, 1
		}
		p := m.labelEnd[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[at(endps, j-trick)^trick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowEdge[at(endps, j-trick)/2] = true
			j += step
			p = at(endps, j-trick) ^ trick
			m.allowEdge[p/2] = true
			j += step
		}
		bv := at(childs, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelEnd[m.endpoint[p^1]], m.labelEnd[bv] = p, p
		m.bestEdge[bv] = -1
		j += step
		for at(childs, j) != entry {
			bv = at(childs, j)
			if m.label[bv] == 1 {
				j += step
				continue
			}
			v := -1
			for _, u := range m.leaves(bv, nil) {
				v = u
				if m.label[u] != 0 {
					break
				}
			}
			if v >= 0 && m.label[v] != 0 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.base[bv]]]] = 0
				m.assignLabel(v, 2, m.labelEnd[v])
			}
			j += step
		}
	}
	m.label[b], m.labelEnd[b] = -1, -1
	m.childs[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.bestEdges[b], m.hasBest[b] = nil, false
	m.bestEdge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom rotates blossom b so that v becomes its base, swapping
// matched and unmatched edges along the way.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.childs[b], m.endps[b]
	i := index(childs, t)
	j := i
	var step, trick int
	if i&1 != 0 {
		j -= len(childs)
		step, trick = 1, 0
	} else {
		step, trick = -1, 1
	}
	for j != 0 {
		j += step
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += step
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.childs[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	m.endps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

// augmentMatching flips the augmenting path through edge k.
func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].U, m.edges[k].V
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inBlossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelEnd[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelEnd[bs]]
			bt := m.inBlossom[t]
			s = m.endpoint[m.labelEnd[bt]]
			j := m.endpoint[m.labelEnd[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelEnd[bt]
			p = m.labelEnd[bt] ^ 1
		}
	}
}

func (m *matcher) run() {
	n := m.n
	if n == 0 || len(m.edges) == 0 {
		return
	}
	for stage := 0; stage < n; stage++ {
		for i := range m.label {
			m.label[i] = 0
			m.bestEdge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.bestEdges[b], m.hasBest[b] = nil, false
		}
		for k := range m.allowEdge {
			m.allowEdge[k] = false
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inBlossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbor[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inBlossom[v] == m.inBlossom[w] {
						continue
					}
					var ks Weight
					if !m.allowEdge[k] {
						ks = m.slack(k)
						if !ks.Neg() && !ks.IsZero() {
							// not tight
						} else {
							m.allowEdge[k] = true
						}
					}
					switch {
					case m.allowEdge[k]:
						switch {
						case m.label[m.inBlossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inBlossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelEnd[w] = p ^ 1
						}
					case m.label[m.inBlossom[w]] == 1:
						b := m.inBlossom[v]
						if m.bestEdge[b] == -1 || ks.Less(m.slack(m.bestEdge[b])) {
							m.bestEdge[b] = k
						}
					case m.label[w] == 0:
						if m.bestEdge[w] == -1 || ks.Less(m.slack(m.bestEdge[w])) {
							m.bestEdge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with tight edges: change the duals.
			deltaType, deltaEdge, deltaBlossom := 1, -1, -1
			delta := m.dual[0]
			for v := 1; v < n; v++ {
				if m.dual[v].Less(delta) {
					delta = m.dual[v]
				}
			}
			for v := 0; v < n; v++ {
				if m.label[m.inBlossom[v]] == 0 && m.bestEdge[v] != -1 {
					if d := m.slack(m.bestEdge[v]); d.Less(delta) {
						delta, deltaType, deltaEdge = d, 2, m.bestEdge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestEdge[b] != -1 {
					if d := m.slack(m.bestEdge[b]).Half(); d.Less(delta) {
						delta, deltaType, deltaEdge = d, 3, m.bestEdge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && m.dual[b].Less(delta) {
					delta, deltaType, deltaBlossom = m.dual[b], 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inBlossom[v]] {
				case 1:
					m.dual[v] = m.dual[v].Sub(delta)
				case 2:
					m.dual[v] = m.dual[v].Add(delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.dual[b].Add(delta)
					case 2:
						m.dual[b] = m.dual[b].Sub(delta)
					}
				}
			}
			switch deltaType {
			case 1:
				// optimum reached
			case 2:
				m.allowEdge[deltaEdge] = true
				i, j := m.edges[deltaEdge].U, m.edges[deltaEdge].V
				if m.label[m.inBlossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			case 3:
				m.allowEdge[deltaEdge] = true
				m.queue = append(m.queue, m.edges[deltaEdge].U)
			case 4:
				m.expandBlossom(deltaBlossom, false)
			}
			if deltaType == 1 {
				break
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b].IsZero() {
				m.expandBlossom(b, true)
			}
		}
	}
}
