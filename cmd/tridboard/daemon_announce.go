package main

import (
	"net"
	"net/url"
	"strings"

	"github.com/tridboard/tridboard/announce"
)

// announce makes the set's pages findable on the network (package
// announce): _tridboard._tcp and NAME.local, on the interfaces where the
// pages are served (the loopback alone for a page on 127.0.0.1). NAME is
// the set's name (board_id) when it can be a host name, as the setup page
// requires and tells the owner to open, else the machine's host name
// (every card of one image has the same). A failure is logged, not fatal:
// the set plays, unannounced.
func (d *daemon) announce() {
	cfg := d.o.cfg
	if d.webLn == nil || !cfg.HTTP.Announce {
		return
	}
	tcp, ok := d.webLn.Addr().(*net.TCPAddr)
	if !ok {
		return
	}
	o := announce.DefaultOpts()
	o.Instance, o.Port, o.LoopbackOnly, o.Log = cfg.BoardID, tcp.Port, tcp.IP.IsLoopback(), d.log
	if announce.HostLabel(cfg.BoardID) {
		o.Host = cfg.BoardID
	}
	o.TXT = announce.TXT(cfg.BoardID, d.tb.Snapshot().System.Name(), version, "/boards/"+url.PathEscape(cfg.BoardID))
	r, err := announce.Start(o)
	if err != nil {
		d.log.Warn("the set is not announced on the network (mDNS): its page is reached by its address", "err", err)
		return
	}
	d.mdns = r
	d.log.Info("announced", "service", announce.Service, "name", cfg.BoardID, "host", r.Host(), "interfaces", strings.Join(r.Interfaces(), ","))
}
