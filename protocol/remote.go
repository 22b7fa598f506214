package protocol

// EventPeer is the Event type of a change of the other set of a remote
// game (Detail: what, in words): it went offline, came back, is in another
// game, or the two sets paired their games.
const EventPeer = "peer"

// RemoteRecord is what a set playing another set says of its side of the
// game, retained on <prefix>/<board>/remote. The moves, the result and the
// clock are in the set's state; the record adds what pairs the two games
// and what the players asked of the other side.
type RemoteRecord struct {
	// Game is this set's game id; Peer the other set's board id; Side the
	// side this set's players play ("white" or "black").
	Game string `json:"game"`
	Peer string `json:"peer"`
	Side string `json:"side"`
	// PeerGame is the other set's game this game is paired with ("": not
	// paired yet). A set pairs with a game of the other set that names it
	// as its peer and is paired with nothing or with this set's game.
	PeerGame string `json:"peer_game,omitempty"`
	// DrawOffer is the ply (the number of moves of the game when it was
	// made, from 0) of a draw offer of this set's players that stands;
	// -1 none.
	DrawOffer int `json:"draw_offer"`
	// DrawDeclined is the ply of the last offer of the other side that
	// this set's players declined (-1: none).
	DrawDeclined int `json:"draw_declined"`
	// TakeBack is a take-back this set's players ask of the other's;
	// TakeBackAnswer this set's players' answer to the other's last one.
	TakeBack       *RemoteTakeBack       `json:"take_back,omitempty"`
	TakeBackAnswer *RemoteTakeBackAnswer `json:"take_back_answer,omitempty"`
	// Restore asks the other set, while the two games differ, to take its
	// game back to the last position both share (its first Keep moves):
	// this set's players chose to restore it (the resolve command).
	// Restored is the ID of the other set's last Restore carried out here.
	Restore  *RemoteRestore `json:"restore,omitempty"`
	Restored int64          `json:"restored,omitempty"`
}

// RemoteRestore is a restore of the position after the first Keep moves
// of the game; ID tells two apart.
type RemoteRestore struct {
	Keep int   `json:"keep"`
	ID   int64 `json:"id"`
}

// RemoteTakeBack is a take-back of Plies moves asked when the game had At
// moves; ID tells two requests apart.
type RemoteTakeBack struct {
	Plies int   `json:"plies"`
	At    int   `json:"at"`
	ID    int64 `json:"id"`
}

// RemoteTakeBackAnswer answers the take-back ID asked at At.
type RemoteTakeBackAnswer struct {
	At     int   `json:"at"`
	ID     int64 `json:"id"`
	Accept bool  `json:"accept"`
}

// TakeBackAsked is a take-back asked in a remote game and not answered
// yet, as the state shows it: of Plies moves, by the other set's players
// (ByOtherSet) or of them.
type TakeBackAsked struct {
	Plies      int  `json:"plies"`
	ByOtherSet bool `json:"by_other_set"`
}

// PeerState is the other set of a remote game as the state shows it.
type PeerState struct {
	// Set is its board id; Online whether it is connected; Paired whether
	// the two games are paired (the same game on both sets).
	Set    string `json:"set"`
	Online bool   `json:"online"`
	Paired bool   `json:"paired"`
	// Detail says what, in words ("offline since 12:00:03; White's clock
	// paused", "in another game: waiting for it to start a new one").
	Detail string `json:"detail,omitempty"`
	// Desync says what differs while the two sets hold different games
	// ("desync at move 2: b7B-b6B here, c7B-c6B on the other set"):
	// Paired is false until they agree again.
	Desync string `json:"desync,omitempty"`
}
