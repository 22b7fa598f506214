package config

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The checks of the places the daemon opens: its state directory and its
// listening addresses. config check and run share them (Validate), so that
// check passes nothing run refuses.

// checkStateDir says why the daemon could not use dir as its state
// directory (create it, then write in it), or "". It creates nothing: it
// looks for the nearest directory that exists and asks whether this user
// may write in it (run config check as the daemon's user).
func checkStateDir(dir string) string {
	if dir == "" {
		return "empty: give a directory"
	}
	for p := filepath.Clean(dir); ; {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			parent := filepath.Dir(p)
			if parent == p {
				return "cannot be created: no directory above it exists"
			}
			p = parent
			continue
		case err != nil:
			return fmt.Sprintf("cannot be created: %v", err)
		case !fi.IsDir() && p == filepath.Clean(dir):
			return "not a directory"
		case !fi.IsDir():
			return fmt.Sprintf("cannot be created: %s is not a directory", p)
		}
		if err := syscall.Access(p, 2|1); err != nil { // W_OK|X_OK
			what := "cannot be written"
			if p != filepath.Clean(dir) {
				what = "cannot be created"
			}
			return fmt.Sprintf("%s: %s: %v (uid %d)", what, p, err, os.Getuid())
		}
		return ""
	}
}

// checkListen says what is wrong with addr, a host:port to listen on, or
// "". The host is empty (every interface), an IP address, or a host name;
// a name that looks like an IPv4 address but is not one (999.1.1.1) is
// refused, as the daemon's listen would fail on it.
func checkListen(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err.Error()
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Sprintf("port %q: want 0 to 65535", port)
	}
	if host == "" || host == "localhost" {
		return ""
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return ""
	}
	if !isHostName(host) {
		return fmt.Sprintf("host %q: want an IP address or a host name", host)
	}
	return ""
}

// isHostName tells whether s is a DNS host name: dot-separated labels of
// letters, digits and inner hyphens, the last one not all digits (or it
// would be an IPv4 address).
func isHostName(s string) bool {
	if len(s) > 253 {
		return false
	}
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	return strings.Trim(last, "0123456789") != ""
}
