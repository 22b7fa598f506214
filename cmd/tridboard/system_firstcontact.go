package main

import "github.com/tridboard/tridboard/rules/firstcontact"

// First Contact registers itself (first-contact.md): the full system, and
// the one for sets whose sockets sense upright platforms only (F6).
func init() {
	systems["first-contact"] = firstcontact.System
	systems["first-contact-up"] = firstcontact.UpOnly
}
