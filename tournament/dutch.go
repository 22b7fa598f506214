package tournament

import (
	"math/bits"

	"github.com/tridboard/tridboard/tournament/internal/blossom"
)

// Dutch is FIDE's Dutch system, C.04.3 as in force from 1 February 2026
// (with C.04.1, the basic rules, and C.04.2, the general handling rules).
//
// The pairing goes bracket by bracket, from the top score down (C.04.3
// art. 3): a bracket is the players moved down from the bracket above
// (MDPs) and the residents of the next score. Each bracket is paired by
// one maximum-weight matching (package blossom) over the bracket and every
// player still below it, whose edge weights hold the criteria side by
// side, the highest first, so that a heavier matching is one that meets
// them better in their order:
//
//	[C1] no rematch, [C3] no two non-topscorers with the same absolute
//	     colour preference: no edge at all;
//	[C2] the pairing-allocated bye only for a player who has had none and
//	     has not scored a win's points without playing: no bye edge
//	     otherwise;
//	[C4] the round-pairing is complete: every edge weighs one unit here,
//	     so only a largest matching can win, whatever the bracket does;
//	[C5] the bye receiver's score as low as possible;
//	[C6] as many pairs in the bracket as possible;
//	[C7] the downfloaters' scores as low as possible (the PSD: each
//	     possible score difference is a power of the bracket's size);
//	[C8] as many pairs in the next bracket as possible;
//	[C9] the bye receiver with as few unplayed games as possible;
//	[C10]-[C11] topscorers or their opponents with a colour difference
//	     beyond 2, or one colour three times running (final round only);
//	[C12]-[C13] colour preferences, then strong ones, not met;
//	[C14]-[C17] resident downfloaters who floated down in the previous
//	     round / two rounds before; MDPs' opponents who floated up then;
//	[C18]-[C21] the score differences of those repeated floats;
//	last, the order in which art. 4 generates candidates (transpositions
//	of S2, then exchanges with S1): pairs far from S1[i]-S2[i] cost more,
//	the higher the S1 player the more; a bracket floats its lowest
//	players; the bye goes to the lowest-ranked.
//
// A bracket whose first candidate meets every criterion (B.4's perfect
// candidate) is taken without a matching. In a heterogeneous bracket the
// remainder is matched again once the MDP-pairing is made, as a bracket of
// its own. The bracket's pairs are then fixed, its other players move
// down, and the next bracket is paired the same way. Colours follow
// art. 5. Checked against an endorsed engine's pairings round by round
// (testdata/golden).
type Dutch struct{}

// Name implements PairingSystem.
func (Dutch) Name() string { return "dutch" }

// dplayer is one player as the pairing of a round sees them.
type dplayer struct {
	no, tpn  int
	score    int // half points, with the acceleration of the round
	pref     colourPref
	cd       int      // colour difference, games played with White minus Black
	cs       []Colour // colours of the games played, in order
	top      bool     // topscorer (A.7 / 1.8), final round only
	canBye   bool     // C2
	unplayed int      // rounds without a game (C9)
	float1   byte     // float of the previous round: 'D', 'U' or 0
	float2   byte     // two rounds before
}

type dutchRound struct {
	t       *Tournament
	no      int
	ps      map[int]*dplayer
	met     map[[2]int]bool
	initial Colour
	// maxScore is the highest score of the round (half points).
	maxScore int
}

// Pair implements PairingSystem.
func (Dutch) Pair(t *Tournament, no int) ([]Game, error) {
	d := newDutchRound(t, no)
	order := t.toPair(no)
	if len(order) == 0 {
		return nil, nil
	}
	score := make([]int, len(t.Players)+1)
	tpn := make([]int, len(t.Players)+1)
	for _, p := range order {
		score[p], tpn[p] = d.ps[p].score, d.ps[p].tpn
	}
	sortPlayers(order, score, tpn)
	pairs, bye, err := d.pairBrackets(order)
	if err != nil {
		return nil, err
	}
	games := make([]Game, 0, len(pairs)+1)
	for _, pr := range pairs {
		w, b := d.colours(pr[0], pr[1])
		games = append(games, Game{White: w, Black: b})
	}
	if bye != 0 {
		games = append(games, Game{White: bye, Result: Bye})
	}
	return games, nil
}

func newDutchRound(t *Tournament, no int) *dutchRound {
	d := &dutchRound{t: t, no: no, ps: map[int]*dplayer{}, met: map[[2]int]bool{}, initial: t.Opts.InitialColour}
	if d.initial != Black {
		d.initial = White
	}
	h := t.history()
	tpn := t.PairingNumbers()
	// Scores before each round, for floats.
	before := make([][]int, len(t.Players)+1) // player -> round -> half points before it
	for p := 1; p <= len(t.Players); p++ {
		before[p] = make([]int, no+1)
		byRound := map[int]int{}
		for _, e := range h[p] {
			byRound[e.round] += e.half
		}
		s := 0
		for r := 1; r <= no; r++ {
			before[p][r] = s + t.accel(p, tpn[p], r)
			s += byRound[r]
		}
	}
	final := no == t.Opts.Rounds
	for p := 1; p <= len(t.Players); p++ {
		es := h[p]
		dp := &dplayer{no: p, tpn: tpn[p], score: before[p][no], pref: prefOf(es), cs: colours(es), canBye: true}
		for _, c := range dp.cs {
			if c == White {
				dp.cd++
			} else {
				dp.cd--
			}
		}
		real := before[p][no] - t.accel(p, tpn[p], no)
		dp.top = final && real > no-1
		seen := map[int]bool{}
		for _, e := range es {
			seen[e.round] = true
			if e.played {
				d.met[key(p, e.opp)] = true
			} else {
				dp.unplayed++
				g := t.gameOf(e.round, p)
				if g.Result == Bye || e.half == 2 {
					dp.canBye = false // C2: a PAB, or a win's points without playing
				}
			}
			var f byte
			switch {
			case e.played && before[p][e.round] > before[e.opp][e.round]:
				f = 'D'
			case e.played && before[p][e.round] < before[e.opp][e.round]:
				f = 'U'
			case !e.played && e.half > 0:
				f = 'D' // more than a loss without playing
			}
			if e.round == no-1 {
				dp.float1 = f
			}
			if e.round == no-2 {
				dp.float2 = f
			}
		}
		for r := 1; r < no; r++ {
			if !seen[r] {
				dp.unplayed++
			}
		}
		d.ps[p] = dp
		d.maxScore = max(d.maxScore, dp.score)
	}
	return d
}

// accel returns the fictitious half-points player p (pairing number tpn)
// has for the pairing of round r.
func (t *Tournament) accel(p, tpn, r int) int {
	n := 0
	for _, a := range t.Opts.Accel {
		if r >= a.FromRound && r <= a.ToRound && tpn >= a.First && tpn <= a.Last {
			n += a.Half
		}
	}
	return n
}

// compatible reports whether a and b may meet (C1, C3).
func (d *dutchRound) compatible(a, b int) bool {
	if d.met[key(a, b)] {
		return false
	}
	pa, pb := d.ps[a], d.ps[b]
	if pa.pref.strength == 3 && pb.pref.strength == 3 && pa.pref.want == pb.pref.want && !pa.top && !pb.top {
		return false
	}
	return true
}

// pairBrackets pairs the players of order (in pairing order) bracket by
// bracket; it returns the pairs and the bye (0 for none).
func (d *dutchRound) pairBrackets(order []int) ([][2]int, int, error) {
	var pairs [][2]int
	rest := append([]int(nil), order...)
	var mdps []int
	for len(rest) > 0 {
		// The bracket: the MDPs and the residents of the highest score left.
		isMDP := map[int]bool{}
		for _, p := range mdps {
			isMDP[p] = true
		}
		var residents, below []int
		top := -1
		for _, p := range rest {
			if isMDP[p] {
				continue
			}
			if top == -1 {
				top = d.ps[p].score
			}
			if d.ps[p].score == top {
				residents = append(residents, p)
			} else {
				below = append(below, p)
			}
		}
		if len(residents) == 0 {
			// Only MDPs are left (they could not be paired above).
			residents, mdps = mdps, nil
			isMDP = map[int]bool{}
		}
		bracket := append(append([]int(nil), mdps...), residents...)
		var next []int
		if len(below) > 0 {
			s := d.ps[below[0]].score
			for _, p := range below {
				if d.ps[p].score == s {
					next = append(next, p)
				}
			}
		}
		last := len(below) == 0
		if len(mdps) == 0 && (last || len(bracket)%2 == 0 && d.completable(below)) {
			// B.4: a perfect candidate (the first one, meeting every
			// criterion) is taken at once.
			if ps, bye, ok := d.perfect(bracket, last); ok {
				pairs = append(pairs, ps...)
				if last {
					return pairs, bye, nil
				}
				mdps, rest = nil, below
				continue
			}
		}
		all := append(append([]int(nil), bracket...), below...)
		mate, bye, ok := d.matchLarge(bracket, isMDP, next, below)
		if !ok {
			mate, bye, ok = d.matchBracket(bracket, isMDP, next, all, last, false)
		} else {
			all = d.largeGraph(bracket, next, below)
		}
		if !ok {
			return nil, 0, ErrNoPairing
		}
		if len(mdps) > 0 {
			mate, bye = d.repairRemainder(bracket, isMDP, next, all, len(below) == 0, mate, bye)
		}
		in := map[int]bool{}
		for _, p := range bracket {
			in[p] = true
		}
		var floaters []int
		for _, p := range bracket {
			q := mate[p]
			switch {
			case q != 0 && in[q] && !(isMDP[p] && isMDP[q]):
				if d.before(p, q) {
					pairs = append(pairs, [2]int{p, q})
				}
			case len(below) == 0 && q != 0:
				if d.before(p, q) {
					pairs = append(pairs, [2]int{p, q})
				}
			case len(below) == 0 && q == 0:
				// the bye, handed out below
			default:
				floaters = append(floaters, p)
			}
		}
		if len(below) == 0 {
			return pairs, bye, nil
		}
		mdps = floaters
		rest = append(append([]int(nil), floaters...), below...)
	}
	return pairs, 0, nil
}

// Large events: a bracket's criteria concern only the bracket and the
// score group below it; the players further down matter only in that the
// round must be completable. Above largeEvent players, a bracket is
// matched with the next largeReserve players below those two groups only,
// when the rest can be paired among themselves (a witness), and the
// matching sends few players into that reserve (so it did not run short):
// otherwise, and always in smaller events, over everyone.
var largeEvent = 400 // a variable for the test that compares both ways

const largeReserve = 64

// largeGraph returns the players matchLarge matches a bracket with.
func (d *dutchRound) largeGraph(bracket, next, below []int) []int {
	var far []int
	for _, p := range below {
		if len(next) == 0 || d.ps[p].score != d.ps[next[0]].score {
			far = append(far, p)
		}
	}
	k := largeReserve
	if (len(bracket)+len(next)+k)%2 == 1 {
		k++
	}
	g := append(append([]int(nil), bracket...), next...)
	return append(g, far[:min(k, len(far))]...)
}

// matchLarge pairs a bracket of a large event over the bracket, the next
// score group and a reserve below them (see largeEvent); ok false when
// that does not apply or does not hold, and the whole matching decides.
func (d *dutchRound) matchLarge(bracket []int, isMDP map[int]bool, next, below []int) (map[int]int, int, bool) {
	if len(bracket)+len(below) <= largeEvent || len(next) == 0 {
		return nil, 0, false
	}
	g := d.largeGraph(bracket, next, below)
	if len(g) >= len(bracket)+len(below)-largeReserve/2 {
		return nil, 0, false
	}
	in := map[int]bool{}
	for _, p := range g {
		in[p] = true
	}
	var rest []int
	for _, p := range below {
		if !in[p] {
			rest = append(rest, p)
		}
	}
	if !d.completable(rest) {
		return nil, 0, false
	}
	mate, _, ok := d.matchBracket(bracket, isMDP, next, g, false, false)
	if !ok {
		return nil, 0, false
	}
	upper := map[int]bool{}
	for _, p := range bracket {
		upper[p] = true
	}
	for _, p := range next {
		upper[p] = true
	}
	into := 0
	for _, p := range g {
		if upper[p] && !upper[mate[p]] {
			into++
		}
	}
	if into > largeReserve/4 {
		return nil, 0, false
	}
	return mate, 0, true
}

// perfect returns a homogeneous bracket's first candidate (S1 meets S2 in
// order; in the last bracket the lowest player has the bye) when it meets
// every criterion: no rematch, colour preferences all granted, no bye to
// a player who may not have it, or who has more unplayed rounds than
// another, or floated down the round before or two rounds before.
func (d *dutchRound) perfect(bracket []int, last bool) ([][2]int, int, bool) {
	n1 := len(bracket) / 2
	bye := 0
	if len(bracket)%2 == 1 {
		if !last {
			return nil, 0, false
		}
		bye = bracket[len(bracket)-1]
		b := d.ps[bye]
		if !b.canBye || b.float1 == 'D' || b.float2 == 'D' {
			return nil, 0, false
		}
		for _, p := range bracket {
			if d.ps[p].canBye && d.ps[p].unplayed < b.unplayed {
				return nil, 0, false
			}
		}
	}
	var pairs [][2]int
	for i := 0; i < n1; i++ {
		a, b := bracket[i], bracket[i+n1]
		if !d.compatible(a, b) {
			return nil, 0, false
		}
		pa, pb := d.ps[a], d.ps[b]
		if pa.pref.want != NoColour && pa.pref.want == pb.pref.want {
			return nil, 0, false
		}
		pairs = append(pairs, [2]int{a, b})
	}
	return pairs, bye, true
}

// completable reports whether players (in pairing order) can all be
// paired, the lowest eligible one taking the bye when they are odd, by
// pairing each with the first it may meet: a witness, not a search (false
// says only that the matching must decide).
func (d *dutchRound) completable(players []int) bool {
	left := append([]int(nil), players...)
	if len(left)%2 == 1 {
		i := len(left) - 1
		for i >= 0 && !d.ps[left[i]].canBye {
			i--
		}
		if i < 0 {
			return false
		}
		left = append(left[:i], left[i+1:]...)
	}
	used := make(map[int]bool, len(left))
	for i, a := range left {
		if used[a] {
			continue
		}
		found := false
		for _, b := range left[i+1:] {
			if !used[b] && d.compatible(a, b) {
				used[a], used[b], found = true, true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// before reports whether a ranks before b (score, then pairing number).
func (d *dutchRound) before(a, b int) bool {
	pa, pb := d.ps[a], d.ps[b]
	if pa.score != pb.score {
		return pa.score > pb.score
	}
	return pa.tpn < pb.tpn
}

// The criteria's fields, from the most significant.
const (
	fComplete    = iota // C4
	fByeScore           // C5
	fPairs              // C6
	fPSD                // C7
	fNextPairs          // C8
	fByeUnplayed        // C9
	fTopCD              // C10
	fTopThree           // C11
	fColour             // C12
	fStrong             // C13
	fDown1              // C14
	fUp1                // C15
	fDown2              // C16
	fUp2                // C17
	fDown1SD            // C18
	fUp1SD              // C19
	fDown2SD            // C20
	fUp2SD              // C21
	fOrderMDP           // art. 4's sequence: the MDP-pairing
	fOrder              // then the remainder
	nFields
)

// matchBracket pairs bracket (MDPs first, then residents, each in
// pairing order) together with every player below it (all, in pairing
// order; next is the score group right below). last says the bracket is
// the last one (it hands out the bye). It returns each player's partner
// (0 for none) and the bye.
func (d *dutchRound) matchBracket(bracket []int, isMDP map[int]bool, next, all []int, last, remainder bool) (map[int]int, int, bool) {
	in := map[int]bool{}
	bsn := map[int]int{}
	for i, p := range bracket {
		in[p] = true
		bsn[p] = i
	}
	inNext := map[int]bool{}
	for _, p := range next {
		inNext[p] = true
	}
	odd := len(all)%2 == 1
	n := len(all)
	if odd {
		n++ // the bye vertex
	}
	byeV := n - 1
	idx := map[int]int{}
	for i, p := range all {
		idx[p] = i
	}
	nb := len(bracket)
	mdpCount := 0
	for _, p := range bracket {
		if isMDP[p] {
			mdpCount++
		}
	}
	residents := nb - mdpCount
	low := 0
	for _, p := range bracket {
		if !isMDP[p] {
			low = d.ps[p].score
		}
	}
	maxScore := 0
	maxUnplayed := 0
	for _, p := range all {
		maxScore = max(maxScore, d.ps[p].score)
		maxUnplayed = max(maxUnplayed, d.ps[p].unplayed)
	}
	// C7: each possible score difference of a bracket player (paired in
	// the bracket, or floating) is a level; a level weighs (nb+1)^rank.
	sdSet := map[int]bool{}
	for _, p := range bracket {
		s := d.ps[p].score
		sdSet[s-low] = true
		sdSet[s-low+2] = true
	}
	var sds []int
	for v := range sdSet {
		sds = append(sds, v)
	}
	sortInts(sds)
	rankOf := map[int]int{}
	for i, v := range sds {
		rankOf[v] = i
	}
	kBits := bits.Len(uint(nb + 1))
	psdCost := func(sd int) blossom.Weight { return blossom.Int(1).Shl(kBits * rankOf[sd]) }
	psdBits := kBits*len(sds) + 1

	// The order of art. 4, approximated by a cost per pair.
	n1 := (residents - min(mdpCount, residents)) / 2
	m1 := min(mdpCount, residents)
	if remainder {
		// The MDP-pairing is made: the residents left are the remainder,
		// whose S1 and S2 are its own halves (art. 3.x, S1R and S2R).
		m1 = 0
		n1 = residents / 2
	}
	// A candidate's place in art. 4's sequence, as a cost: first the
	// size of the exchange between S1 and S2 (players moved), then its
	// BSN-sum difference (D.2 a, b), then the transposition (the higher
	// an S1 player, the more its partner's distance from its natural one
	// counts). Pairs of two S1 players move one of them (the lower) to S2,
	// pairs of two S2 players one (the higher) to S1, a floater in S1 moves
	// to S2.
	rsize := residents - m1 // the homogeneous part: remainder or bracket
	shift := mdpCount + m1
	big := int64(nb + 2)
	wTr := int64(1)
	wSum := big * big * big
	wMoves := wSum * big * big * 2
	inS1 := func(x int) bool { return x < n1 }
	pairCost := func(i, j int) int64 { // resident indices, i < j
		switch {
		case inS1(i) && !inS1(j):
			return int64(abs(j-n1-i)) * int64(rsize-i) * wTr
		case inS1(i) && inS1(j):
			return wMoves + int64(big-int64(j))*wSum
		default:
			return wMoves + int64(big+int64(i))*wSum
		}
	}
	floatCost := func(p int) int64 { // a bracket player left unpaired
		if isMDP[p] {
			return int64(nb - bsn[p]) // the lowest MDPs stay in the Limbo
		}
		x := bsn[p] - shift
		if inS1(x) {
			return wMoves + int64(big-int64(x))*wSum
		}
		return int64(rsize-x) * wTr
	}
	orderCost := func(a, b int) int64 {
		i, j := bsn[a], bsn[b]
		if j < i {
			i, j = j, i
		}
		switch {
		case i < mdpCount && j >= mdpCount:
			return 0 // see mdpCost
		case i >= mdpCount:
			return pairCost(i-shift, j-shift)
		}
		return 4 * wMoves
	}
	orderMax := 5*wMoves + 1
	// The MDP-pairing comes before the remainder (art. 4: the remainder's
	// candidates are all tried before the next MDP-pairing): MDP i meets
	// resident r, naturally r == i.
	mdpCost := func(a, b int) int64 {
		i, j := bsn[a], bsn[b]
		if j < i {
			i, j = j, i
		}
		if i < mdpCount && j >= mdpCount {
			return int64(abs(j-mdpCount-i)) * int64(nb-i)
		}
		return 0
	}
	mdpMax := int64(nb)*int64(nb) + 1

	put := func(w *edgeVals, f int, v int64) { w.v[f] += v }
	puti := put

	var edges []blossom.Edge
	var vals []edgeVals
	for i, a := range all {
		for j := i + 1; j < len(all); j++ {
			b := all[j]
			if !d.compatible(a, b) {
				continue
			}
			var w edgeVals
			puti(&w, fComplete, 1)
			inA, inB := in[a], in[b]
			both := inA && inB && !(isMDP[a] && isMDP[b])
			if last {
				both = inA && inB
			}
			if both {
				puti(&w, fPairs, 1)
				save := blossom.Weight{}
				for _, p := range []int{a, b} {
					s := d.ps[p].score
					save = save.Add(psdCost(s - low + 2)).Sub(psdCost(s - low))
				}
				w.psd = save
				d.colourWeights(&w, a, b)
				d.floatWeights(&w, a, b, isMDP)
				puti(&w, fOrder, orderMax-orderCost(a, b))
				puti(&w, fOrderMDP, mdpMax-mdpCost(a, b))
			} else {
				puti(&w, fTopCD, 2)
				puti(&w, fTopThree, 2)
				puti(&w, fColour, 2)
				puti(&w, fStrong, 2)
				for f := fDown1; f <= fUp2; f++ {
					puti(&w, f, 2)
				}
				for f := fDown1SD; f <= fUp2SD; f++ {
					puti(&w, f, int64(d.maxScore+2))
				}
				// A bracket player floats: the lowest floats first, and
				// not one who floated down lately (C14, C16).
				fl := int64(0)
				for _, p := range []int{a, b} {
					if inA && p == a || inB && p == b {
						fl += floatCost(p)
						if !isMDP[p] && d.ps[p].float1 == 'D' {
							puti(&w, fDown1, -1)
						}
						if !isMDP[p] && d.ps[p].float2 == 'D' {
							puti(&w, fDown2, -1)
						}
					}
				}
				puti(&w, fOrder, orderMax-fl)
			}
			if !last && (inA || inNext[a]) && (inB || inNext[b]) && !(inA && inB) {
				puti(&w, fNextPairs, 1)
			}
			edges = append(edges, blossom.Edge{U: i, V: j})
			vals = append(vals, w)
		}
	}
	if odd {
		for i, a := range all {
			p := d.ps[a]
			if !p.canBye {
				continue
			}
			var w edgeVals
			puti(&w, fComplete, 1)
			puti(&w, fByeScore, int64(maxScore+1-p.score))
			puti(&w, fByeUnplayed, int64(maxUnplayed+1-p.unplayed))
			puti(&w, fTopCD, 2)
			puti(&w, fTopThree, 2)
			puti(&w, fColour, 2)
			puti(&w, fStrong, 2)
			for f := fDown1; f <= fUp2; f++ {
				puti(&w, f, 2)
			}
			for f := fDown1SD; f <= fUp2SD; f++ {
				puti(&w, f, int64(d.maxScore+2))
			}
			if in[a] {
				if !isMDP[a] && p.float1 == 'D' {
					puti(&w, fDown1, -1)
				}
				if !isMDP[a] && p.float2 == 'D' {
					puti(&w, fDown2, -1)
				}
				puti(&w, fOrder, orderMax-floatCost(a))
			} else {
				puti(&w, fOrder, orderMax)
			}
			edges = append(edges, blossom.Edge{U: i, V: byeV})
			vals = append(vals, w)
		}
	}
	d.weigh(edges, vals, psdBits+bits.Len(uint(n)), n/2)
	m := blossom.Match(n, edges)
	mate := map[int]int{}
	bye := 0
	for i, a := range all {
		q := m[i]
		switch {
		case q < 0:
			return nil, 0, false // the round cannot be completed
		case odd && q == byeV:
			bye = a
			mate[a] = 0
		default:
			mate[a] = all[q]
		}
	}
	return mate, bye, true
}

// repairRemainder pairs a heterogeneous bracket's remainder again, the
// MDP-pairing that mate made kept: art. 4 pairs the remainder as a
// bracket of its own (S1R against S2R), which only the pairs with an MDP
// decide. The criteria are met as well as before (the first matching is
// one of the candidates), so only art. 4's order can change.
func (d *dutchRound) repairRemainder(bracket []int, isMDP map[int]bool, next, all []int, last bool, mate map[int]int, bye int) (map[int]int, int) {
	in := map[int]bool{}
	for _, p := range bracket {
		in[p] = true
	}
	fixed := map[int]bool{}
	for _, p := range bracket {
		if q := mate[p]; isMDP[p] && q != 0 && in[q] && !isMDP[q] {
			fixed[p], fixed[q] = true, true
		}
	}
	if len(fixed) == 0 {
		return mate, bye
	}
	// When the MDPs met the first residents, as many as there are MDPs,
	// the first matching counted the remainder from the right place.
	mdps, natural, seen := 0, true, 0
	for _, p := range bracket {
		if isMDP[p] {
			mdps++
			continue
		}
		if seen < mdps && !fixed[p] {
			natural = false
		}
		seen++
	}
	if natural && len(fixed)/2 == min(mdps, seen) {
		return mate, bye
	}
	var b2, all2 []int
	for _, p := range bracket {
		if !fixed[p] {
			b2 = append(b2, p)
		}
	}
	for _, p := range all {
		if !fixed[p] {
			all2 = append(all2, p)
		}
	}
	residents := 0
	for _, p := range b2 {
		if !isMDP[p] {
			residents++
		}
	}
	if residents < 2 {
		return mate, bye
	}
	m2, bye2, ok := d.matchBracket(b2, isMDP, next, all2, last, true)
	if !ok {
		return mate, bye
	}
	for p := range fixed {
		m2[p] = mate[p]
	}
	return m2, bye2
}

// edgeVals are one edge's values of the criteria (rewards: the higher
// the better), and its PSD saving.
type edgeVals struct {
	v   [nFields]int64
	psd blossom.Weight
}

// weigh lays the criteria out side by side, the most significant first,
// and gives every edge its weight. A criterion whose value is the same on
// every edge decides nothing and takes no room; the values are counted
// from their least (every complete matching has as many edges, so this
// changes no comparison). Should the criteria still not fit, the least
// significant are left out (the order first).
func (d *dutchRound) weigh(edges []blossom.Edge, vals []edgeVals, psdBits, pairs int) {
	if len(vals) == 0 {
		return
	}
	lo, hi := vals[0].v, vals[0].v
	psdVaries := false
	for _, e := range vals {
		for f := range e.v {
			lo[f] = min(lo[f], e.v[f])
			hi[f] = max(hi[f], e.v[f])
		}
		if e.psd != vals[0].psd {
			psdVaries = true
		}
	}
	// Completion counts edges: it always takes its room, from zero, so
	// that only a largest matching can win.
	lo[fComplete] = 0
	width := make([]int, nFields)
	for f := range width {
		if hi[f] > lo[f] {
			width[f] = bits.Len64(uint64(hi[f]-lo[f])) + bits.Len(uint(pairs+1)) + 1
		}
	}
	if psdVaries {
		width[fPSD] = psdBits
	}
	total := func() int {
		t := 0
		for _, w := range width {
			t += w
		}
		return t
	}
	for f := nFields - 1; total() >= blossom.Bits-3 && f > fStrong; f-- {
		width[f] = 0
	}
	offset := make([]int, nFields)
	at := 0
	for f := nFields - 1; f >= 0; f-- {
		offset[f] = at
		at += width[f]
	}
	for k := range edges {
		var w blossom.Weight
		for f := range width {
			if width[f] == 0 {
				continue
			}
			if f == fPSD {
				w = w.Add(vals[k].psd.Shl(offset[f]))
				continue
			}
			w = w.Add(blossom.Int(vals[k].v[f] - lo[f]).Shl(offset[f]))
		}
		edges[k].W = w
	}
}

// colourWeights adds C10-C13 for a pair: the rewards of the criteria met.
func (d *dutchRound) colourWeights(w *edgeVals, a, b int) {
	white, _ := d.colours(a, b)
	topCD, three, pref, strong := int64(0), int64(0), int64(0), int64(0)
	for _, p := range []int{a, b} {
		dp := d.ps[p]
		got := Black
		if p == white {
			got = White
		}
		if dp.pref.want != NoColour && dp.pref.want != got {
			pref++
			if dp.pref.strength >= 2 {
				strong++
			}
		}
		if d.ps[a].top || d.ps[b].top {
			cd := dp.cd
			if got == White {
				cd++
			} else {
				cd--
			}
			if cd > 2 || cd < -2 {
				topCD++
			}
			if n := len(dp.cs); n >= 2 && dp.cs[n-1] == got && dp.cs[n-2] == got {
				three++
			}
		}
	}
	w.v[fTopCD] += 2 - topCD
	w.v[fTopThree] += 2 - three
	w.v[fColour] += 2 - pref
	w.v[fStrong] += 2 - strong
}

// floatWeights adds C15, C17 and C18-C21 for a pair of the bracket: an
// MDP's resident opponent floats up, the MDP down again.
func (d *dutchRound) floatWeights(w *edgeVals, a, b int, isMDP map[int]bool) {
	hi, lo := a, b
	if d.before(b, a) {
		hi, lo = b, a
	}
	ph, pl := d.ps[hi], d.ps[lo]
	sd := int64(ph.score - pl.score)
	up1, up2 := int64(2), int64(2)
	down1SD, up1SD, down2SD, up2SD := sd, sd, sd, sd
	if sd > 0 {
		if pl.float1 == 'U' {
			up1--
		} else {
			up1SD = 0
		}
		if pl.float2 == 'U' {
			up2--
		} else {
			up2SD = 0
		}
		if ph.float1 != 'D' {
			down1SD = 0
		}
		if ph.float2 != 'D' {
			down2SD = 0
		}
	} else {
		down1SD, up1SD, down2SD, up2SD = 0, 0, 0, 0
	}
	maxSD := int64(d.maxScore + 2)
	w.v[fDown1] += 2
	w.v[fDown2] += 2
	w.v[fUp1] += up1
	w.v[fUp2] += up2
	w.v[fDown1SD] += maxSD - down1SD
	w.v[fUp1SD] += maxSD - up1SD
	w.v[fDown2SD] += maxSD - down2SD
	w.v[fUp2SD] += maxSD - up2SD
}

// colours allocates the colours of a pair (C.04.3 art. 5.2); it returns
// White and Black.
func (d *dutchRound) colours(a, b int) (int, int) {
	hi, lo := a, b
	if d.before(b, a) {
		hi, lo = b, a
	}
	ph, pl := d.ps[hi], d.ps[lo]
	give := func(c Colour) (int, int) { // c: hi's colour
		if c == White {
			return hi, lo
		}
		return lo, hi
	}
	wh, wl := ph.pref.want, pl.pref.want
	switch {
	case wh != NoColour && wl != NoColour && wh != wl: // 5.2.1 both
		return give(wh)
	case wh != NoColour && wl == NoColour:
		return give(wh)
	case wh == NoColour && wl != NoColour:
		return give(opposite(wl))
	case wh != NoColour && ph.pref.strength != pl.pref.strength: // 5.2.2 the stronger
		if ph.pref.strength > pl.pref.strength {
			return give(wh)
		}
		return give(opposite(wl))
	case wh != NoColour && ph.pref.strength == 3 && abs(ph.cd) != abs(pl.cd):
		if abs(ph.cd) > abs(pl.cd) {
			return give(wh)
		}
		return give(opposite(wl))
	}
	// 5.2.3: alternate from the latest round they had different colours,
	// unplayed rounds counted first (C.04.2 3.4).
	for i, j := len(ph.cs)-1, len(pl.cs)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if ph.cs[i] != pl.cs[j] {
			return give(opposite(ph.cs[i]))
		}
	}
	if wh != NoColour { // 5.2.4 the higher-ranked player's preference
		return give(wh)
	}
	// 5.2.5 the initial colour for an odd pairing number.
	if ph.tpn%2 == 1 {
		return give(d.initial)
	}
	return give(opposite(d.initial))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
