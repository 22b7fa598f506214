package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

func init() {
	register("version", "print the version", runVersion)
}

// fullVersion adds the VCS revision the binary was built from.
func fullVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", "Prints the version of tridboard.", stdout, stderr)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	fmt.Fprintf(stdout, "tridboard %s %s/%s %s\n", fullVersion(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	return exitOK
}

// exeReplaced says whether the running program was replaced on disk since
// it started: a new version installed (dpkg renames the new file over the
// old one) and the service not restarted yet. Linux then names the target
// of /proc/self/exe "... (deleted)".
func exeReplaced() bool { return exeGone("/proc/self/exe") }

// exeGone says whether the program file of a process (its /proc/PID/exe
// link) is no longer on disk.
func exeGone(link string) bool {
	p, err := os.Readlink(link)
	return err == nil && strings.HasSuffix(p, " (deleted)")
}
