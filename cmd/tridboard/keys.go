package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// Files of a set's state directory that hold the keys it trusts.
const (
	// peerKeysFile: the other sets' keys, for games between sets (given
	// with "tridboard key trust", or pinned at the first game).
	peerKeysFile = "peer_keys.json"
	// commandKeysFile: the keys allowed to send the set commands (the
	// event runner's, a controller's: "tridboard key allow"); when it
	// names any, the set takes only commands they signed.
	commandKeysFile = "command_keys.json"
	// commandSeenFile: each sender's last counter, so that a command read
	// off the broker cannot be replayed after a restart either.
	commandSeenFile = "command_seen.json"
)

func init() {
	register("key", "show this set's signing key; trust another set's, or allow a sender of commands", runKey)
}

// setTrust is what a set signs with and whom it believes.
type setTrust struct {
	key      *trust.Key
	peers    *trust.Checker    // the other sets of remote games
	peerRing *trust.Ring       // their keys
	auth     *mqtt.CommandAuth // nil: commands with the token, as before
}

// loadTrust loads (or makes) the set's key in stateDir and the keys it
// trusts.
func loadTrust(stateDir string, log *slog.Logger) (setTrust, error) {
	k, err := trust.LoadOrCreate(stateDir)
	if err != nil {
		return setTrust{}, err
	}
	peers, err := trust.OpenRing(filepath.Join(stateDir, peerKeysFile))
	if err != nil {
		return setTrust{}, err
	}
	peers.FirstUse = true // a set not given another's key pins the first it sees
	co := trust.DefaultCheckerOpts(peers)
	co.Log = log
	st := setTrust{key: k, peers: trust.NewChecker(co), peerRing: peers}
	senders, err := trust.OpenRing(filepath.Join(stateDir, commandKeysFile))
	if err != nil {
		return setTrust{}, err
	}
	if ids, _ := senders.Entries(); len(ids) > 0 {
		st.auth = &mqtt.CommandAuth{Senders: senders, Log: log, SeenFile: filepath.Join(stateDir, commandSeenFile)}
	}
	log.Info("signing key", "fingerprint", k.Public().Fingerprint(), "commands", map[bool]string{true: "signed only", false: "token"}[st.auth != nil])
	return st, nil
}

// handler is h, enrolling first the other set's key a new_game gives
// ("opponent": {"set": ..., "key": ...}): the pairing of two sets, by a
// command the set has authenticated.
func (st setTrust) handler(h protocol.Handler) protocol.Handler {
	return protocol.HandlerFunc(func(ctx context.Context, c protocol.Command) (any, error) {
		if ng, ok := c.(protocol.NewGame); ok && ng.Opponent != nil && ng.Opponent.Key != "" {
			pub, err := trust.ParsePublicKey(ng.Opponent.Key)
			if err != nil {
				return nil, err
			}
			if err := st.peerRing.Enroll(ng.Opponent.Set, pub); err != nil {
				return nil, err
			}
			st.peers.Forget(ng.Opponent.Set)
		}
		return h.Command(ctx, c)
	})
}

func runKey(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("key", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgFile := fs.String("config", "", "configuration `file` (its state directory)")
	stateDir := fs.String("state-dir", "", "the set's state `directory` (default: the configuration's)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard key [--config FILE | --state-dir DIR] [show | trust SET KEY | allow NAME KEY | forget SET]")
		fmt.Fprintln(fs.Output(), "\nshow (the default) prints this set's public key and fingerprint (made at the first start).")
		fmt.Fprintln(fs.Output(), "trust SET KEY: believe only KEY for the set SET in games between sets (docs/mqtt.md).")
		fmt.Fprintln(fs.Output(), "allow NAME KEY: let the holder of KEY (the event runner, a controller) send this set commands;")
		fmt.Fprintln(fs.Output(), "once any is allowed, the set takes only signed commands. forget SET drops a trusted set's key.")
		fmt.Fprintln(fs.Output(), "A running set reads the keys at its next game.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	dir := *stateDir
	if dir == "" {
		cfg, err := config.Load(*cfgFile)
		if err != nil {
			fmt.Fprintln(stderr, "tridboard key:", err)
			return exitConfig
		}
		dir = cfg.StateDir
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "tridboard key:", err)
		return exitFailure
	}
	a := fs.Args()
	verb := "show"
	if len(a) > 0 {
		verb, a = a[0], a[1:]
	}
	want := map[string]int{"show": 0, "trust": 2, "allow": 2, "forget": 1}
	n, ok := want[verb]
	if !ok || len(a) != n {
		fs.Usage()
		return exitUsage
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fail(err)
	}
	switch verb {
	case "show":
		k, err := trust.LoadOrCreate(dir)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "%s\nfingerprint %s\n", k.Public(), k.Public().Fingerprint())
		return exitOK
	case "forget":
		r, err := trust.OpenRing(filepath.Join(dir, peerKeysFile))
		if err == nil {
			err = r.Remove(a[0])
		}
		if err != nil {
			return fail(err)
		}
		return exitOK
	}
	pub, err := trust.ParsePublicKey(a[1])
	if err != nil {
		fmt.Fprintln(stderr, "tridboard key:", err)
		return exitUsage
	}
	file := map[string]string{"trust": peerKeysFile, "allow": commandKeysFile}[verb]
	r, err := trust.OpenRing(filepath.Join(dir, file))
	if err == nil {
		err = r.Enroll(a[0], pub)
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "%s %s: key %s\n", verb, a[0], pub.Fingerprint())
	return exitOK
}

// keyLine is doctor's line about the set's signing key.
func keyLine(stateDir string) string {
	k, err := trust.LoadOrCreate(stateDir)
	switch {
	case errors.Is(err, os.ErrNotExist), err != nil && !dirExists(stateDir):
		return "signing key: none yet (made at the first start in " + stateDir + ")"
	case err != nil:
		return "signing key: " + err.Error()
	}
	return "signing key: fingerprint " + k.Public().Fingerprint() + " (compare it with the desk's and the other set's)"
}

func dirExists(d string) bool {
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}
