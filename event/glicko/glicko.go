// Package glicko rates players by the Glicko-2 system (Mark E. Glickman,
// "Example of the Glicko-2 system", 2013): a rating, a rating deviation
// (how sure the rating is) and a volatility (how erratic the player's
// results are), updated once a rating period from the period's games.
//
// The event rates its exhibition days with it: each festival day is one
// period, everyone starts at 1500 with a deviation of 350.
package glicko

import (
	"fmt"
	"math"
)

// Opts are the system's constants.
type Opts struct {
	// Tau constrains the volatility's change over time (Glickman: 0.3 to
	// 1.2; smaller for games where a big upset is unlikely).
	Tau float64
	// Rating, RD and Vol are a new player's.
	Rating, RD, Vol float64
	// Epsilon is the volatility iteration's convergence tolerance.
	Epsilon float64
}

// DefaultOpts returns Glickman's suggested values: tau 0.5, a new player at
// 1500 with RD 350 and volatility 0.06, epsilon 0.000001.
func DefaultOpts() Opts {
	return Opts{Tau: 0.5, Rating: 1500, RD: 350, Vol: 0.06, Epsilon: 0.000001}
}

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Vol    float64 `json:"vol"`
}

// New returns a new player's rating.
func (o Opts) New() Rating { return Rating{o.Rating, o.RD, o.Vol} }

// Game is one game of a period from the player's side: the opponent's
// rating before the period and the player's score (1, 0.5 or 0).
type Game struct {
	Opponent Rating
	Score    float64
}

// scale converts between the Glicko and the Glicko-2 scales (step 2).
const scale = 173.7178

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns p's rating after a period with games (steps 2 to 8 of
// Glickman's paper); with no games only the deviation grows (step 6's
// last case).
func (o Opts) Update(p Rating, games []Game) (Rating, error) {
	mu, phi, sigma := (p.Rating-1500)/scale, p.RD/scale, p.Vol
	if len(games) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return Rating{p.Rating, math.Min(phiStar*scale, o.RD), sigma}, nil
	}
	// Step 3: the estimated variance v; step 4: the improvement delta.
	var vinv, sum float64
	for _, gm := range games {
		if gm.Score != 0 && gm.Score != 0.5 && gm.Score != 1 {
			return p, fmt.Errorf("glicko: score %v: want 0, 0.5 or 1", gm.Score)
		}
		muj, phij := (gm.Opponent.Rating-1500)/scale, gm.Opponent.RD/scale
		e := expect(mu, muj, phij)
		vinv += g(phij) * g(phij) * e * (1 - e)
		sum += g(phij) * (gm.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(o.Tau*o.Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*o.Tau) < 0 {
			k++
			if k > 1000 {
				return p, fmt.Errorf("glicko: the volatility's bracket was not found")
			}
		}
		B = a - k*o.Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > o.Epsilon; i++ {
		if i > 1000 {
			return p, fmt.Errorf("glicko: the volatility did not converge")
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma2 := math.Exp(A / 2)
	// Steps 6 and 7: the new deviation and rating; step 8: back to scale.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	return Rating{mu2*scale + 1500, phi2 * scale, sigma2}, nil
}
