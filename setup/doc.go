// Package setup is the set's first boot from a phone: the page at /setup
// that shows the set's own Wi-Fi access point (its name, its password and
// a QR code a phone's camera joins with) and takes the venue's Wi-Fi
// (name, password, country), which it writes as a spool file for the
// privileged tridboard-wifi script of the card image
// (deploy/image/rootfs: tridboard-wifi.path runs it when the file
// appears), the daemon itself running unprivileged; the set's name and
// the rules of its next games (Identity), which the daemon keeps in its
// state directory's setup.yaml and applies by restarting in place
// (Opts.Save); the command token, handed to the set's first visitor on its
// access point or at its screen and made anew (Opts.Rotate); the
// networks the set saw (ParseScan of `iw dev wlan0 scan`); and, on the
// access point until the set is named, phones led to the page as by a
// captive portal (Opts.Portal). /setup/wiring learns the set's wiring
// with the LEDs' help (Wiring: one session at a time, its progress,
// cancel, the result saved or discarded), the daemon supplying the
// learning itself (Learn), this package touching no hardware. Everything
// is served from the binary: a phone on the set's access point has no
// internet.
package setup
