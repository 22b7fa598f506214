package cvd

import "testing"

// Red and green lose their red-green difference under protanopia and
// deuteranopia (both seen on the yellow-blue axis: red and green channels
// alike), not under tritanopia; blue and yellow stay apart for all; grey
// is grey for every eye.
func TestSimulate(t *testing.T) {
	for _, c := range []RGB{{220, 50, 30}, {60, 180, 40}} {
		for _, tc := range []struct {
			k       Kind
			redSame bool
		}{{Normal, false}, {Protanopia, true}, {Deuteranopia, true}, {Tritanopia, false}} {
			s := Simulate(c, tc.k)
			if same := s[0]-s[1] < 25 && s[1]-s[0] < 25; same != tc.redSame {
				t.Errorf("%v under %s: %v", c, tc.k, s)
			}
		}
	}
	if d, k := Worst(RGB{0, 90, 255}, RGB{255, 210, 0}); d < 150 {
		t.Errorf("blue-yellow: %.0f under %s", d, k)
	}
	for _, k := range Kinds {
		if s := Simulate(RGB{128, 128, 128}, k); Distance(s, RGB{128, 128, 128}, Normal) > 3 {
			t.Errorf("grey under %s is %v", k, s)
		}
	}
}

// Achromatopsia sees lightness only: any colour is the grey of its
// luminance (pure green lighter than pure red, which is lighter than pure
// blue), and two colours of one luminance are the same.
func TestAchromatopsia(t *testing.T) {
	for _, tc := range []struct {
		c    RGB
		grey float64
	}{{RGB{255, 255, 255}, 255}, {RGB{0, 0, 0}, 0}, {RGB{0, 255, 0}, 220}, {RGB{255, 0, 0}, 127}, {RGB{0, 0, 255}, 76}} {
		s := Simulate(tc.c, Achromatopsia)
		if s[0] != s[1] || s[1] != s[2] || s[0] < tc.grey-1 || s[0] > tc.grey+1 {
			t.Errorf("%v under achromatopsia: %v, want grey %.0f", tc.c, s, tc.grey)
		}
	}
	if d, k := WorstOf(RGB{255, 0, 0}, RGB{127, 127, 127}, Every); d > 2 || k != Achromatopsia {
		t.Errorf("red and its grey: %.1f apart under %s", d, k)
	}
}
