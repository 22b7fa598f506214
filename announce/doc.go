// Package announce makes a set findable on the venue's network by
// Multicast DNS and DNS-based service discovery (RFC 6762, RFC 6763),
// with no other program running: the daemon answers for itself.
//
// A running Responder answers, on every interface it watches:
//
//   - HOST.local (A and AAAA): the interface's own addresses, so a phone
//     opens http://HOST.local:PORT/;
//   - _tridboard._tcp.local (PTR), INSTANCE._tridboard._tcp.local (SRV:
//     HOST.local and the web server's port; TXT: the set's board id, rules
//     system, version and page path), so a DNS-SD browser (`avahi-browse
//     _tridboard._tcp`, `dns-sd -B _tridboard._tcp`, `tridboard view
//     --discover`) lists the sets;
//   - _services._dns-sd._udp.local (PTR): the service type, for browsers
//     that list every type.
//
// It announces its records when it starts and when an interface comes up
// or changes its addresses (twice, a second apart: RFC 6762 section 8.3),
// and says goodbye when it stops (the records again with TTL 0: section
// 10.1), so browsers drop the set at once rather than after two minutes.
// Queries from port 5353 are answered by multicast on the interface they
// came from; one-shot queries from another port (RFC 6762 section 6.7)
// and questions asking for a unicast answer are answered to the asker.
//
// The records are made by github.com/hashicorp/mdns (its MDNSService
// zone), the messages packed by github.com/miekg/dns; Browse is that
// module's client. The sockets are this package's own: one UDP socket on
// port 5353 (shared with any other responder on the machine), joined to
// 224.0.0.251 on each interface, which tells on what interface a query
// came so that the answer carries that interface's addresses. IPv4 only
// (the AAAA records are still given). Not done: probing for a name another
// host already uses (section 8.1; a set's name is its board id, unique in
// a venue by the event's own rules), known-answer suppression and the
// random delay of shared answers (a set has one service; answers are
// small).
package announce
