package hall

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"strings"
)

// mosquittoIterations is mosquitto_passwd's default for $7$ hashes.
const mosquittoIterations = 101

// MosquittoHash is password hashed as mosquitto_passwd (Mosquitto 2) does:
// "$7$<iterations>$<salt>$<hash>", PBKDF2-SHA512, a 12-byte salt, base64.
func MosquittoHash(password string, salt []byte) (string, error) {
	if salt == nil {
		salt = make([]byte, 12)
		if _, err := rand.Read(salt); err != nil {
			return "", err
		}
	}
	h, err := pbkdf2.Key(sha512.New, password, salt, mosquittoIterations, sha512.Size)
	if err != nil {
		return "", err
	}
	enc := base64.StdEncoding
	return fmt.Sprintf("$7$%d$%s$%s", mosquittoIterations, enc.EncodeToString(salt), enc.EncodeToString(h)), nil
}

// MosquittoOpts are the broker's listener and where its files are.
type MosquittoOpts struct {
	// Listen is "port" or "port address" (Mosquitto's listener line).
	Listen string
	// Dir is where the password file and the ACL are installed
	// (/etc/mosquitto/tridboard).
	Dir string
	// TLS, when set, names the listener's PEM files: CA, certificate, key.
	CAFile, CertFile, KeyFile string
}

// DefaultMosquittoOpts: port 1883 on every address, the files in
// /etc/mosquitto/tridboard.
func DefaultMosquittoOpts() MosquittoOpts {
	return MosquittoOpts{Listen: "1883", Dir: "/etc/mosquitto/tridboard"}
}

// Mosquitto returns the broker's configuration (a file for
// /etc/mosquitto/conf.d), its password file (user -> password given in
// passwords) and its ACL.
func Mosquitto(p Plan, o MosquittoOpts, passwords map[string]string) (conf, passwd, acl []byte, err error) {
	if err := p.Check(); err != nil {
		return nil, nil, nil, err
	}
	var c strings.Builder
	fmt.Fprintf(&c, "# tridboard hall: written by \"tridboard hall\"; docs/hall.md\n")
	fmt.Fprintf(&c, "per_listener_settings false\nallow_anonymous false\n")
	fmt.Fprintf(&c, "password_file %s/passwd\nacl_file %s/acl\n", o.Dir, o.Dir)
	// A state of a long game is about 12 KiB: nothing larger is a set's.
	fmt.Fprintf(&c, "message_size_limit 262144\n")
	// A flooded set must still get every command to answer it
	// (docs/mqtt.md): no limit on the messages queued for a client.
	fmt.Fprintf(&c, "max_queued_messages 0\n")
	fmt.Fprintf(&c, "listener %s\n", o.Listen)
	if o.CertFile != "" {
		fmt.Fprintf(&c, "cafile %s\ncertfile %s\nkeyfile %s\ntls_version tlsv1.2\n", o.CAFile, o.CertFile, o.KeyFile)
	}
	var pw strings.Builder
	for _, u := range p.Users() {
		secret, ok := passwords[u]
		if !ok {
			return nil, nil, nil, fmt.Errorf("hall: no password for %s", u)
		}
		h, err := MosquittoHash(secret, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		fmt.Fprintf(&pw, "%s:%s\n", u, h)
	}
	var a strings.Builder
	fmt.Fprintf(&a, "# tridboard hall: each set writes only its own topics, spectators read, the event runner commands.\n")
	fmt.Fprintf(&a, "# Anyone else is refused at the login (allow_anonymous false).\n")
	rights := p.Rights()
	for _, u := range p.Users() {
		r := rights[u]
		fmt.Fprintf(&a, "\nuser %s\n", u)
		for _, t := range r.Publish {
			fmt.Fprintf(&a, "topic write %s\n", t)
		}
		for _, t := range r.Subscribe {
			fmt.Fprintf(&a, "topic read %s\n", t)
		}
	}
	return []byte(c.String()), []byte(pw.String()), []byte(a.String()), nil
}
