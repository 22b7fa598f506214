// Package cvd simulates the colour-vision deficiencies (protanopia,
// deuteranopia, tritanopia, and achromatopsia, which sees only lightness)
// on sRGB colours, for the tests that keep the displays' and the LEDs'
// palettes apart for every eye.
package cvd

import "math"

// Kind is a colour-vision deficiency.
type Kind int

// The deficiencies simulated (Machado, Oliveira and Fernandes 2009,
// severity 1), and normal vision.
const (
	Normal Kind = iota
	Protanopia
	Deuteranopia
	Tritanopia
	// Achromatopsia sees the luminance alone (Rec. 709 weights of the
	// linear channels): every colour a grey.
	Achromatopsia
)

// Kinds are the dichromacies and normal vision, normal vision first.
var Kinds = []Kind{Normal, Protanopia, Deuteranopia, Tritanopia}

// Every is every kind, achromatopsia included.
var Every = []Kind{Normal, Protanopia, Deuteranopia, Tritanopia, Achromatopsia}

func (k Kind) String() string {
	return [...]string{"normal", "protanopia", "deuteranopia", "tritanopia", "achromatopsia"}[k]
}

var matrices = [...][3][3]float64{
	Normal:        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	Protanopia:    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	Deuteranopia:  {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	Tritanopia:    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
	Achromatopsia: {{0.2126, 0.7152, 0.0722}, {0.2126, 0.7152, 0.0722}, {0.2126, 0.7152, 0.0722}},
}

// RGB is an sRGB colour, 0..255 a channel.
type RGB [3]float64

func toLinear(c float64) float64 {
	c /= 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func toSRGB(c float64) float64 {
	c = math.Max(0, math.Min(1, c))
	if c <= 0.0031308 {
		return 255 * 12.92 * c
	}
	return 255 * (1.055*math.Pow(c, 1/2.4) - 0.055)
}

// Simulate is c as an eye of kind k sees it.
func Simulate(c RGB, k Kind) RGB {
	lin := [3]float64{toLinear(c[0]), toLinear(c[1]), toLinear(c[2])}
	m := matrices[k]
	var out RGB
	for i := range 3 {
		out[i] = toSRGB(m[i][0]*lin[0] + m[i][1]*lin[1] + m[i][2]*lin[2])
	}
	return out
}

// Distance is how far apart an eye of kind k sees a and b: the Euclidean
// distance of the simulated sRGB colours (0 the same, 441 black from
// white).
func Distance(a, b RGB, k Kind) float64 {
	sa, sb := Simulate(a, k), Simulate(b, k)
	d := 0.0
	for i := range 3 {
		d += (sa[i] - sb[i]) * (sa[i] - sb[i])
	}
	return math.Sqrt(d)
}

// Worst is the smallest Distance of a and b over Kinds (normal vision and
// the dichromacies), and the kind.
func Worst(a, b RGB) (float64, Kind) { return WorstOf(a, b, Kinds) }

// WorstOf is the smallest Distance of a and b over kinds, and the kind.
func WorstOf(a, b RGB, kinds []Kind) (float64, Kind) {
	best, kind := math.Inf(1), Normal
	for _, k := range kinds {
		if d := Distance(a, b, k); d < best {
			best, kind = d, k
		}
	}
	return best, kind
}
