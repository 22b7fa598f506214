package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/tridboard/tridboard/announce"
)

// discoverWait is how long `view --discover` listens for the sets' answers.
const discoverWait = 3 * time.Second

// runDiscover lists the sets that answer a DNS-SD browse for
// _tridboard._tcp on the interface named ifname ("": the machine's
// default), one a line: name, page, rules system, version. Exit status 1
// when none answered.
func runDiscover(ifname string, stdout, stderr io.Writer) int {
	var ifi *net.Interface
	if ifname != "" {
		var err error
		if ifi, err = net.InterfaceByName(ifname); err != nil {
			fmt.Fprintf(stderr, "tridboard view: --interface %s: %v\n", ifname, err)
			return exitUsage
		}
	}
	sets, err := announce.Browse(context.Background(), ifi, discoverWait)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard view: --discover: %v\n", err)
		return exitFailure
	}
	if len(sets) == 0 {
		fmt.Fprintf(stderr, "tridboard view: no set answered within %v (same network? mDNS, UDP port 5353, let through?)\n", discoverWait)
		return exitFailure
	}
	for _, s := range sets {
		fmt.Fprintf(stdout, "%s\t%s\trules=%s\tversion=%s\n", s.Instance, s.URL(), s.Value("rules"), s.Value("version"))
	}
	return exitOK
}
