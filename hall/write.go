package hall

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tridboard/tridboard/internal/durable"
)

// WriteOpts say what Write writes and where the files will be installed.
type WriteOpts struct {
	Mosquitto MosquittoOpts
	// Nodes are the NATS cluster's nodes (none: no NATS files).
	Nodes []Node
	// NATSDir is where each node finds its certificates (/etc/nats).
	NATSDir string
	// Now dates the certificates (nil: time.Now).
	Now func() time.Time
}

// Write writes the hall's files into dir: secrets/<account>.pw (0600: each
// account's password, kept when the file exists, so writing again changes
// nothing for the sets), mosquitto/ (tridboard.conf, passwd, acl) and, with
// nodes, nats/ (a CA, each node's configuration, certificate and key). It
// returns the passwords.
func Write(dir string, p Plan, o WriteOpts) (map[string]string, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	for _, d := range []string{"secrets", "mosquitto", "nats"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o750); err != nil {
			return nil, fmt.Errorf("hall: %w", err)
		}
	}
	users := p.Users()
	if len(o.Nodes) > 0 {
		users = append(users, RouteUser)
	}
	pw := map[string]string{}
	for _, u := range users {
		name := filepath.Join(dir, "secrets", u+".pw")
		b, err := os.ReadFile(name)
		switch {
		case err == nil && strings.TrimSpace(string(b)) != "":
			pw[u] = strings.TrimSpace(string(b))
			continue
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("hall: %w", err)
		}
		pw[u] = NewPassword()
		if err := writeFile(name, []byte(pw[u]+"\n"), 0o600); err != nil {
			return nil, err
		}
	}
	conf, passwd, acl, err := Mosquitto(p, o.Mosquitto, pw)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{{"tridboard.conf", conf, 0o644}, {"passwd", passwd, 0o640}, {"acl", acl, 0o644}} {
		if err := writeFile(filepath.Join(dir, "mosquitto", f.name), f.data, f.mode); err != nil {
			return nil, err
		}
	}
	if len(o.Nodes) == 0 {
		return pw, nil
	}
	ca, err := NewCA(o.Now())
	if err != nil {
		return nil, err
	}
	caKey, err := ca.KeyPEM()
	if err != nil {
		return nil, err
	}
	nd := filepath.Join(dir, "nats")
	if err := writeFile(filepath.Join(nd, "ca.pem"), ca.PEM(), 0o644); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(nd, "ca-key.pem"), caKey, 0o600); err != nil {
		return nil, err
	}
	for i, n := range o.Nodes {
		cert, key, err := ca.Issue(n.Host, o.Now())
		if err != nil {
			return nil, err
		}
		files := NATSFiles{CA: filepath.Join(o.NATSDir, "ca.pem"), Cert: filepath.Join(o.NATSDir, n.Name+".pem"),
			Key: filepath.Join(o.NATSDir, n.Name+"-key.pem")}
		conf, err := NATS(p, o.Nodes, i, files, pw)
		if err != nil {
			return nil, err
		}
		for _, f := range []struct {
			name string
			data []byte
			mode os.FileMode
		}{{n.Name + ".conf", conf, 0o600}, {n.Name + ".pem", cert, 0o644}, {n.Name + "-key.pem", key, 0o600}} {
			if err := writeFile(filepath.Join(nd, f.name), f.data, f.mode); err != nil {
				return nil, err
			}
		}
	}
	return pw, nil
}

// writeFile writes data to name with mode (never more open than mode,
// even for a moment), so that a crash leaves the old file or the new one.
func writeFile(name string, data []byte, mode os.FileMode) error {
	if err := durable.WriteAtomicMode(name, data, mode); err != nil {
		return fmt.Errorf("hall: %w", err)
	}
	return nil
}
