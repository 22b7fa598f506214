package glicko

import (
	"fmt"
	"math"
	"testing"
)

// Glickman's worked example ("Example of the Glicko-2 system", steps 1-8):
// a player rated 1500 (RD 200, volatility 0.06) with tau 0.5 beats a 1400
// (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300); the paper gets
// 1464.06, RD 151.52, volatility 0.05999. The paper rounds its
// intermediate values (v 1.7785, delta -0.4834); computed without rounding
// they are 1.77898 and -0.48393 and the results 1464.051, 151.517 and
// 0.0599960, within 0.01 of the paper's figures, which the test holds to.
func TestGlickmanExample(t *testing.T) {
	o := DefaultOpts()
	got, err := o.Update(Rating{1500, 200, 0.06}, []Game{
		{Rating{1400, 30, 0.06}, 1}, {Rating{1550, 100, 0.06}, 0}, {Rating{1700, 300, 0.06}, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Vol-0.05999) > 0.00001 {
		t.Errorf("got %.3f %.3f %.6f, want 1464.06 151.52 0.05999", got.Rating, got.RD, got.Vol)
	}
	if s := fmt.Sprintf("%.3f %.3f %.7f", got.Rating, got.RD, got.Vol); s != "1464.051 151.517 0.0599960" {
		t.Errorf("unrounded: got %s, want 1464.051 151.517 0.0599960", s)
	}
}

// A period without games leaves the rating and widens the deviation
// (step 6), never past a new player's.
func TestNoGames(t *testing.T) {
	o := DefaultOpts()
	got, _ := o.Update(Rating{1700, 50, 0.06}, nil)
	want := math.Sqrt(50.0/scale*50.0/scale+0.06*0.06) * scale
	if got.Rating != 1700 || math.Abs(got.RD-want) > 1e-9 || got.Vol != 0.06 {
		t.Errorf("got %+v, want 1700 RD %.4f", got, want)
	}
	if got, _ := o.Update(Rating{1500, 349.9, 0.06}, nil); got.RD != 350 {
		t.Errorf("RD %v past 350", got.RD)
	}
}

func TestBadScore(t *testing.T) {
	if _, err := DefaultOpts().Update(DefaultOpts().New(), []Game{{DefaultOpts().New(), 2}}); err == nil {
		t.Error("a score of 2 was taken")
	}
}

// Winning against an equal raises the rating; losing lowers it the same.
func TestSymmetry(t *testing.T) {
	o := DefaultOpts()
	w, _ := o.Update(o.New(), []Game{{o.New(), 1}})
	l, _ := o.Update(o.New(), []Game{{o.New(), 0}})
	if w.Rating <= 1500 || math.Abs((w.Rating-1500)-(1500-l.Rating)) > 1e-9 {
		t.Errorf("win %v loss %v", w, l)
	}
}
