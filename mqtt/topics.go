package mqtt

import (
	"fmt"
	"strings"
)

// Topic suffixes under <prefix>/<board>/.
const (
	TopicState        = "state"
	TopicMove         = "move"
	TopicEvent        = "event"
	TopicAvailability = "availability"
	TopicSet          = "set"
	TopicResponse     = "response"
	// TopicRemote: the retained topic where a set playing another set
	// publishes its side of the remote game (protocol.RemoteRecord).
	TopicRemote = "remote"
	// TopicKey: the retained topic where a set announces its public key
	// (KeyAnnouncement), for enrolment.
	TopicKey = "key"
)

// ProtocolVersion is the MQTT version tridboard speaks: 4, MQTT 3.1.1,
// and only it. (paho falls back to MQTT 3.1, "MQIsdp", when a broker
// refuses 3.1.1 unless told the version; a NATS cluster refuses 3.1 and
// logs each attempt.)
const ProtocolVersion = 4

// Availability payloads, as Home Assistant expects them by default.
const (
	Online  = "online"
	Offline = "offline"
)

// Topics names the topics of one board.
type Topics struct {
	// Base is "<prefix>/<board>".
	Base string
}

// NewTopics checks prefix and board and returns their topics. The prefix may
// hold several levels ("home/chess"); the board id is one level. Neither may
// hold wildcards, NUL, leading or trailing slashes, or empty levels.
func NewTopics(prefix, board string) (Topics, error) {
	if err := checkLevels(prefix); err != nil {
		return Topics{}, fmt.Errorf("mqtt: topic prefix %q: %w", prefix, err)
	}
	if err := checkLevels(board); err != nil {
		return Topics{}, fmt.Errorf("mqtt: board id %q: %w", board, err)
	}
	if strings.Contains(board, "/") {
		return Topics{}, fmt.Errorf("mqtt: board id %q: must be one topic level, without '/'", board)
	}
	return Topics{Base: prefix + "/" + board}, nil
}

func checkLevels(s string) error {
	if s == "" {
		return fmt.Errorf("empty")
	}
	if strings.ContainsAny(s, "+#\x00") {
		return fmt.Errorf("holds a wildcard or NUL")
	}
	if strings.HasPrefix(s, "$") {
		return fmt.Errorf("starts with '$', reserved for brokers")
	}
	for _, l := range strings.Split(s, "/") {
		if l == "" {
			return fmt.Errorf("has an empty level")
		}
	}
	return nil
}

// State is the retained state topic.
func (t Topics) State() string { return t.Base + "/" + TopicState }

// Move is the topic of moves.
func (t Topics) Move() string { return t.Base + "/" + TopicMove }

// Event is the topic of events.
func (t Topics) Event() string { return t.Base + "/" + TopicEvent }

// Availability is the retained online/offline topic (the last will).
func (t Topics) Availability() string { return t.Base + "/" + TopicAvailability }

// Key is the retained topic of the set's public key.
func (t Topics) Key() string { return t.Base + "/" + TopicKey }

// Set is the topic of a command.
func (t Topics) Set(command string) string { return t.Base + "/" + TopicSet + "/" + command }

// SetFilter is the subscription filter for every command.
func (t Topics) SetFilter() string { return t.Base + "/" + TopicSet + "/+" }

// Response is the topic of a command's replies.
func (t Topics) Response(command string) string {
	return t.Base + "/" + TopicResponse + "/" + command
}

// Remote is the retained topic of this board's side of a remote game.
func (t Topics) Remote() string { return t.Base + "/" + TopicRemote }

// command returns the command name of a set topic, or false.
func (t Topics) command(topic string) (string, bool) {
	p := t.Base + "/" + TopicSet + "/"
	if !strings.HasPrefix(topic, p) {
		return "", false
	}
	c := topic[len(p):]
	return c, c != "" && !strings.Contains(c, "/")
}

// CommandKind is the kind a signed command of name is signed as: a command
// signed for resign cannot be passed off as another.
func CommandKind(name string) string { return TopicSet + "/" + name }
