package web

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/tridboard/tridboard/internal/cvd"
)

// cssColours reads the colour variables of app.css (--name: #rrggbb).
func cssColours(t *testing.T) map[string]cvd.RGB {
	b, err := os.ReadFile("static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]cvd.RGB{}
	for _, m := range regexp.MustCompile(`--([a-z-]+): #([0-9a-f]{6})\b`).FindAllStringSubmatch(string(b), -1) {
		var c cvd.RGB
		for i := range 3 {
			v, _ := strconv.ParseUint(m[2][2*i:2*i+2], 16, 8)
			c[i] = float64(v)
		}
		out[m[1]] = c
	}
	return out
}

// Issue 25: the flat view's marks stay visible on every square colour
// (the main boards' and the attack boards') for every eye: normal vision,
// protanopia, deuteranopia, tritanopia. The fills (the square a move
// reached, a cell to fix, the king in check) differ from each other by
// shape as well (app.css: a cross, a heavy frame), as do the last move's
// dashed frame and the lifted piece's solid one.
func TestPaletteColourBlindSafe(t *testing.T) {
	c := cssColours(t)
	squares := []string{"light", "dark", "clight", "cdark"}
	for _, mark := range []string{"m-last", "m-fix", "m-check", "m-target", "m-capture", "m-lifted", "m-from"} {
		for _, sq := range squares {
			mc, ok1 := c[mark]
			sc, ok2 := c[sq]
			if !ok1 || !ok2 {
				t.Fatalf("app.css lacks --%s or --%s", mark, sq)
			}
			if d, k := cvd.Worst(mc, sc); d < 70 {
				t.Errorf("--%s on a --%s square: %.0f apart under %s", mark, sq, d, k)
			}
		}
	}
}

// Issue 39: the marks stay apart from every square's colour under every
// colour-vision deficiency, achromatopsia (lightness alone) included: the
// square a move reached (a fill, no shape of its own) never takes the grey
// of a square, nor does a cell to fix or a king in check.
func TestPaletteAchromatopsia(t *testing.T) {
	c := cssColours(t)
	for _, mark := range []string{"m-last", "m-fix", "m-check", "m-target", "m-capture", "m-lifted", "m-from"} {
		least, at, under := 1e9, "", cvd.Normal
		for _, sq := range []string{"light", "dark", "clight", "cdark"} {
			d, k := cvd.WorstOf(c[mark], c[sq], cvd.Every)
			if d < least {
				least, at, under = d, sq, k
			}
			if d < 70 {
				t.Errorf("--%s on a --%s square: %.0f apart under %s", mark, sq, d, k)
			}
		}
		t.Logf("--%s: at least %.0f apart from a square (--%s under %s)", mark, least, at, under)
	}
}
