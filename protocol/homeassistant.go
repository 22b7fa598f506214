package protocol

// HomeAssistantNode is the board's node id in its Home Assistant discovery
// topics (<discovery>/<component>/<node>/<object>/config): "tridboard_"
// and the board id, as Home Assistant wants it: [a-zA-Z0-9_-].
func HomeAssistantNode(board string) string {
	b := []byte("tridboard_" + board)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}
