package mqtt

import (
	"encoding/json"
	"strings"

	"github.com/tridboard/tridboard/protocol"
)

// haDevice is the device block of a Home Assistant discovery config.
type haDevice struct {
	Identifiers  []string `json:"identifiers"`
	Name         string   `json:"name"`
	Manufacturer string   `json:"manufacturer"`
	Model        string   `json:"model"`
	SWVersion    string   `json:"sw_version,omitempty"`
}

// haEntity is a Home Assistant MQTT discovery config (sensor or button).
type haEntity struct {
	Name                string   `json:"name"`
	UniqueID            string   `json:"unique_id"`
	Icon                string   `json:"icon,omitempty"`
	StateTopic          string   `json:"state_topic,omitempty"`
	ValueTemplate       string   `json:"value_template,omitempty"`
	JSONAttrTopic       string   `json:"json_attributes_topic,omitempty"`
	CommandTopic        string   `json:"command_topic,omitempty"`
	PayloadPress        string   `json:"payload_press,omitempty"`
	AvailabilityTopic   string   `json:"availability_topic"`
	PayloadAvailable    string   `json:"payload_available"`
	PayloadNotAvailable string   `json:"payload_not_available"`
	Device              haDevice `json:"device"`
}

// discoveryMessages returns the retained Home Assistant discovery configs:
// sensors for the board status, turn, last move, move number and result
// (the whole state as attributes), and, when commands are handled without
// a token, a button to resync. None when opts.Discovery is empty.
func discoveryMessages(t Topics, opts Opts, commands bool) []message {
	if opts.Discovery == "" {
		return nil
	}
	node := protocol.HomeAssistantNode(opts.BoardID)
	dev := haDevice{
		Identifiers:  []string{node},
		Name:         "tridboard " + opts.BoardID,
		Manufacturer: "tridboard",
		Model:        "Star Trek 3D chess set",
		SWVersion:    opts.Version,
	}
	sensor := func(obj, name, icon, tmpl string) haEntity {
		return haEntity{
			Name: name, UniqueID: node + "_" + obj, Icon: icon,
			StateTopic: t.State(), ValueTemplate: tmpl, JSONAttrTopic: t.State(),
			AvailabilityTopic: t.Availability(), PayloadAvailable: Online, PayloadNotAvailable: Offline,
			Device: dev,
		}
	}
	entities := []struct {
		component, obj string
		e              haEntity
	}{
		{"sensor", "board", sensor("board", "Board", "mdi:checkerboard", "{{ value_json.board.status }}")},
		{"sensor", "turn", sensor("turn", "Turn", "mdi:chess-king", "{{ value_json.turn }}")},
		{"sensor", "last_move", sensor("last_move", "Last move", "mdi:chess-knight", "{{ value_json.last_move.san if value_json.last_move else '' }}")},
		{"sensor", "move_number", sensor("move_number", "Move number", "mdi:counter", "{{ value_json.move_number }}")},
		{"sensor", "result", sensor("result", "Result", "mdi:trophy", "{{ value_json.result }}")},
	}
	if commands && opts.CommandToken == "" { // never put the token in a retained config
		entities = append(entities, struct {
			component, obj string
			e              haEntity
		}{"button", "resync", haEntity{
			Name: "Resync", UniqueID: node + "_resync", Icon: "mdi:sync",
			CommandTopic: t.Set(protocol.CmdResync), PayloadPress: "{}",
			AvailabilityTopic: t.Availability(), PayloadAvailable: Online, PayloadNotAvailable: Offline,
			Device: dev,
		}})
	}
	var out []message
	for _, e := range entities {
		b, err := json.Marshal(e.e)
		if err != nil {
			continue
		}
		topic := strings.Join([]string{opts.Discovery, e.component, node, e.obj, "config"}, "/")
		out = append(out, message{topic, b})
	}
	return out
}
