package mqtt

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
)

// ParseBrokers reads a broker address: one URL, or several separated by
// commas (the nodes of a cluster, any of which will do). Each is tcp://,
// ssl://, ws:// or wss:// (mqtt://, mqtts:// and tls:// too) with a host.
func ParseBrokers(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("mqtt: no broker URL")
	}
	var out []string
	seen := map[string]bool{}
	for _, b := range strings.Split(s, ",") {
		b = strings.TrimSpace(b)
		u, err := url.Parse(b)
		switch {
		case b == "":
			return nil, fmt.Errorf("mqtt: broker list %q: an empty entry", s)
		case err != nil:
			return nil, fmt.Errorf("mqtt: broker %q: %w", b, err)
		case !map[string]bool{"tcp": true, "mqtt": true, "ssl": true, "tls": true, "mqtts": true, "ws": true, "wss": true}[u.Scheme]:
			return nil, fmt.Errorf("mqtt: broker %q: scheme %q: want tcp, ssl, ws or wss (or mqtt, mqtts, tls)", b, u.Scheme)
		case u.Host == "":
			return nil, fmt.Errorf("mqtt: broker %q: no host", b)
		case seen[b]:
			return nil, fmt.Errorf("mqtt: broker %q: listed twice", b)
		}
		seen[b] = true
		out = append(out, b)
	}
	return out, nil
}

// spread turns a list of a cluster's nodes so that the clients named by
// different ids start at different nodes (and move on in the same order):
// a hall's sets spread over the cluster instead of all on its first node.
func spread(brokers []string, id string) []string {
	if len(brokers) < 2 {
		return brokers
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	k := int(h.Sum32() % uint32(len(brokers)))
	return append(append([]string(nil), brokers[k:]...), brokers[:k]...)
}
