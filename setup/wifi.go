package setup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Hotspot is the set's own access point, as the card image's
// tridboard-hotspot writes it in /etc/tridboard/hotspot.conf (ssid= and
// psk= lines).
type Hotspot struct {
	SSID, PSK string
}

// ReadHotspot reads the access point's file at path. An error says the
// file is missing, unreadable or lacks its ssid= or psk= line.
func ReadHotspot(path string) (Hotspot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Hotspot{}, fmt.Errorf("setup: access point: %w", err)
	}
	var h Hotspot
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if v, ok := strings.CutPrefix(l, "ssid="); ok && h.SSID == "" {
			h.SSID = v
		} else if v, ok := strings.CutPrefix(l, "psk="); ok && h.PSK == "" {
			h.PSK = v
		}
	}
	if h.SSID == "" || h.PSK == "" {
		return Hotspot{}, fmt.Errorf("setup: access point: %s: no ssid= or psk= line", path)
	}
	return h, nil
}

// URI is the access point as a Wi-Fi QR code's text, the WIFI: URI that
// phones' cameras read (ZXing's format, taken up by the Wi-Fi Alliance's
// WPA3 specification): WIFI:T:WPA;S:<name>;P:<password>;; with \ ; , : and
// " escaped by a backslash.
func (h Hotspot) URI() string {
	return "WIFI:T:WPA;S:" + escapeWifi(h.SSID) + ";P:" + escapeWifi(h.PSK) + ";;"
}

var wifiEscaper = strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, `:`, `\:`, `"`, `\"`)

func escapeWifi(s string) string { return wifiEscaper.Replace(s) }

// Venue is the venue's Wi-Fi a set joins.
type Venue struct {
	// SSID is the network's name: 1 to 32 bytes, no control characters.
	SSID string `json:"ssid"`
	// PSK is its WPA password, 8 to 63 printable ASCII characters
	// (IEEE 802.11's passphrase), or empty for an open network.
	PSK string `json:"psk"`
	// Country is the ISO 3166-1 alpha-2 code of the country the set is in
	// (GB, DE, US), which decides the channels and power it may use.
	Country string `json:"country"`
}

// Check says what is wrong with v, field by field, or nil.
func (v Venue) Check() error {
	var errs []error
	switch {
	case v.SSID == "":
		errs = append(errs, errors.New("the network's name is empty"))
	case len(v.SSID) > 32:
		errs = append(errs, fmt.Errorf("the network's name is %d bytes long: at most 32", len(v.SSID)))
	case strings.IndexFunc(v.SSID, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		errs = append(errs, errors.New("the network's name holds a control character (a line break?)"))
	}
	if v.PSK != "" {
		if n := len(v.PSK); n < 8 || n > 63 {
			errs = append(errs, fmt.Errorf("the password is %d characters long: a WPA password has 8 to 63 (empty for an open network)", n))
		} else if strings.IndexFunc(v.PSK, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0 {
			errs = append(errs, errors.New("the password holds a character other than printable ASCII (letters, digits, punctuation, space)"))
		}
	}
	if len(v.Country) != 2 || !isUpper(v.Country[0]) || !isUpper(v.Country[1]) {
		errs = append(errs, fmt.Errorf("the country %q is not two capital letters (ISO 3166-1: GB, DE, US)", v.Country))
	}
	if len(errs) > 0 {
		return fmt.Errorf("setup: venue Wi-Fi: %w", errors.Join(errs...))
	}
	return nil
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// File is v as tridboard-wifi reads it: ssid=, psk= (none for an open
// network) and country= lines.
func (v Venue) File() []byte {
	s := "ssid=" + v.SSID + "\n"
	if v.PSK != "" {
		s += "psk=" + v.PSK + "\n"
	}
	return []byte(s + "country=" + v.Country + "\n")
}

// SpoolName is the spool file's name in its directory, which the card
// image's tridboard-wifi.path watches.
const SpoolName = "tridboard-wifi.txt"

// Spool writes v, checked, into dir/SpoolName for tridboard-wifi: readable
// by its owner only (it holds a password), and whole or not at all (a
// temporary file renamed, so that the path unit never sees half of it).
// Bad input writes nothing.
func Spool(dir string, v Venue) (string, error) {
	if err := v.Check(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("setup: spool: %w", err)
	}
	f, err := os.CreateTemp(dir, ".wifi-*")
	if err != nil {
		return "", fmt.Errorf("setup: spool: %w", err)
	}
	_, err = f.Write(v.File())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	path := filepath.Join(dir, SpoolName)
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("setup: spool %s: %w", path, err)
	}
	return path, nil
}
