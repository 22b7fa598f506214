package setup

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Network is a Wi-Fi network the set can see, as the venue's form offers
// it.
type Network struct {
	SSID string `json:"ssid"`
	// Signal is the strongest of its access points, in dBm.
	Signal float64 `json:"signal"`
	// Security is "open", "WEP", "WPA", "WPA2", "WPA2/WPA3" (either),
	// "WPA3" or "enterprise" (a login per person, IEEE 802.1X).
	Security string `json:"security"`
	// Joinable: the form's name and password join it (open, or a WPA or
	// WPA2 password, which tridboard-wifi gives wpa_supplicant); not WEP,
	// WPA3 alone, or a login per person.
	Joinable bool `json:"joinable"`
}

// ScanName is the file in which the card image's tridboard-hotspot keeps
// what `iw dev wlan0 scan` saw before it opened the access point (the
// Wi-Fi chip does not scan while it is one).
const ScanName = "/run/tridboard-scan.txt"

// ParseScan reads the output of `iw dev <interface> scan` and returns the
// networks in it: one per name (the signal and security of its strongest
// access point), strongest first, then by name; hidden networks (no name, or one of NUL
// bytes) left out. A name is decoded from iw's escapes (\xNN for a byte
// that is not printable ASCII, a backslash, or a space at either end).
// An error says which line does not read.
func ParseScan(r io.Reader) ([]Network, error) {
	type bss struct {
		ssid              string
		signal            float64
		privacy, haveSSID bool
		rsn, wpa          []string // authentication suites
	}
	var all []*bss
	var cur *bss
	section := "" // "RSN" or "WPA" while in one
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "BSS ") {
			cur = &bss{signal: -1000}
			all = append(all, cur)
			section = ""
			continue
		}
		if cur == nil || line == "" {
			continue
		}
		depth := len(line) - len(strings.TrimLeft(line, "\t"))
		text := strings.TrimSpace(line)
		if depth == 1 {
			section = ""
			key, val, _ := strings.Cut(text, ":")
			val = strings.TrimSpace(val)
			switch key {
			case "SSID":
				s, err := unescapeSSID(strings.TrimPrefix(line[len("\tSSID:"):], " "))
				if err != nil {
					return nil, fmt.Errorf("setup: scan line %d: %v", n, err)
				}
				cur.ssid, cur.haveSSID = s, true
			case "signal":
				f, err := strconv.ParseFloat(strings.TrimSuffix(val, " dBm"), 64)
				if err != nil {
					return nil, fmt.Errorf("setup: scan line %d: signal %q: not dBm", n, val)
				}
				cur.signal = f
			case "capability":
				cur.privacy = slices.Contains(strings.Fields(val), "Privacy")
			case "RSN", "WPA":
				section = key
				text = val // "* Version: 1" follows on the same line
			}
		}
		if section != "" {
			if v, ok := strings.CutPrefix(strings.TrimPrefix(text, "* "), "Authentication suites:"); ok {
				suites := strings.Fields(v)
				if section == "RSN" {
					cur.rsn = append(cur.rsn, suites...)
				} else {
					cur.wpa = append(cur.wpa, suites...)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("setup: scan: %w", err)
	}
	best := map[string]Network{}
	for _, b := range all {
		if !b.haveSSID || strings.Trim(b.ssid, "\x00") == "" {
			continue
		}
		sec := security(b.privacy, b.rsn, b.wpa)
		if old, ok := best[b.ssid]; ok && old.Signal >= b.signal {
			continue
		}
		best[b.ssid] = Network{SSID: b.ssid, Signal: b.signal, Security: sec,
			Joinable: sec == "open" || sec == "WPA" || sec == "WPA2" || sec == "WPA2/WPA3"}
	}
	out := make([]Network, 0, len(best))
	for _, nw := range best {
		out = append(out, nw)
	}
	slices.SortFunc(out, func(a, b Network) int {
		if a.Signal != b.Signal {
			if a.Signal > b.Signal {
				return -1
			}
			return 1
		}
		return strings.Compare(a.SSID, b.SSID)
	})
	return out, nil
}

// security names what an access point announces: RSN's (WPA2, WPA3)
// authentication suites, WPA's, or only the privacy bit (WEP).
func security(privacy bool, rsn, wpa []string) string {
	has := func(list []string, s ...string) bool {
		for _, x := range s {
			if slices.Contains(list, x) {
				return true
			}
		}
		return false
	}
	switch {
	case has(rsn, "IEEE", "802.1X", "FT/IEEE") || has(wpa, "IEEE", "802.1X"):
		return "enterprise"
	case has(rsn, "SAE", "FT/SAE") && has(rsn, "PSK", "FT/PSK", "PSK/SHA-256"):
		return "WPA2/WPA3"
	case has(rsn, "SAE", "FT/SAE"):
		return "WPA3"
	case len(rsn) > 0:
		return "WPA2"
	case len(wpa) > 0:
		return "WPA"
	case privacy:
		return "WEP"
	}
	return "open"
}

// unescapeSSID undoes iw's escapes: \xNN is the byte NN.
func unescapeSSID(s string) (string, error) {
	if !strings.Contains(s, `\x`) {
		return s, nil
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				return "", fmt.Errorf("name %q: bad escape %q", s, s[i:i+4])
			}
			b = append(b, byte(v))
			i += 3
			continue
		}
		b = append(b, s[i])
	}
	return string(b), nil
}

// networks serves the networks the set saw before it opened its access
// point (Scan): no command token, a scan being what any phone nearby sees.
func (o Opts) networks(w http.ResponseWriter, r *http.Request) {
	if o.Scan == "" {
		fail(w, http.StatusNotFound, "this set does not scan for Wi-Fi: type the network's name")
		return
	}
	f, err := os.Open(o.Scan)
	if err != nil {
		fail(w, http.StatusNotFound, "no scan yet: type the network's name")
		return
	}
	defer f.Close()
	fi, _ := f.Stat()
	nws, err := ParseScan(io.LimitReader(f, 4<<20))
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	reply(w, http.StatusOK, map[string]any{"networks": nws, "at": fi.ModTime().UTC().Format(time.RFC3339)})
}
