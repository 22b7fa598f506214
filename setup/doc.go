// Package setup is the set's first boot from a phone: the page at /setup
// that shows the set's own Wi-Fi access point (its name, its password and
// a QR code a phone's camera joins with) and takes the venue's Wi-Fi
// (name, password, country), which it writes as a spool file for the
// privileged tridboard-wifi script of the card image
// (deploy/image/rootfs: tridboard-wifi.path runs it when the file
// appears), the daemon itself running unprivileged. /setup/wiring learns
// the set's wiring with the LEDs' help (Wiring: one session at a time,
// its progress, cancel, the result saved or discarded), the daemon
// supplying the learning itself (Learn), this package touching no
// hardware. Everything is served from the binary: a phone on the set's
// access point has no internet.
package setup
