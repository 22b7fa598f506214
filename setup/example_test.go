package setup_test

import (
	"fmt"

	"github.com/tridboard/tridboard/setup"
)

// The text of the access point's QR code, and the file the venue's Wi-Fi
// becomes for tridboard-wifi.
func Example() {
	fmt.Println(setup.Hotspot{SSID: "tridboard-3f2a", PSK: "9c41d2a07be6f318"}.URI())
	fmt.Println(setup.Hotspot{SSID: "Café;2", PSK: `a"b:c`}.URI())
	v := setup.Venue{SSID: "Hall 2", PSK: "secret123", Country: "GB"}
	fmt.Print(v.Check(), "\n", string(v.File()))
	fmt.Println(setup.Venue{SSID: "Hall 2", PSK: "short", Country: "gb"}.Check())
	// Output:
	// WIFI:T:WPA;S:tridboard-3f2a;P:9c41d2a07be6f318;;
	// WIFI:T:WPA;S:Café\;2;P:a\"b\:c;;
	// <nil>
	// ssid=Hall 2
	// psk=secret123
	// country=GB
	// setup: venue Wi-Fi: the password is 5 characters long: a WPA password has 8 to 63 (empty for an open network)
	// the country "gb" is not two capital letters (ISO 3166-1: GB, DE, US)
}
