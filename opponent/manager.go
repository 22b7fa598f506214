package opponent

import (
	"context"
	"log/slog"
	"sync"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/table"
)

// Doer carries out table commands: a *table.Table.
type Doer interface {
	Do(ctx context.Context, c table.Command) (table.Reply, error)
}

// Player plays one side of a game from elsewhere. It gets the table's
// events (Handle, on the manager's goroutine) and plays its moves with
// table.PlayMove through the table's Doer.
type Player interface {
	Handle(e table.Event)
	Close()
}

// Factory makes the player of spec for the game of snap.
type Factory func(spec game.Opponent, snap *table.Snapshot) (Player, error)

// Manager is a table sink that keeps the game's opponent playing: it starts
// the player a game's tags name when the game begins (or the set restarts
// in it), and stops it when another game begins.
type Manager struct {
	make Factory
	log  *slog.Logger

	mu     sync.Mutex
	game   string
	spec   string
	player Player
}

// NewManager returns a manager making players with f.
func NewManager(f Factory, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.Default()
	}
	return &Manager{make: f, log: log}
}

// Handle follows the table.
func (m *Manager) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.Snap.Game != m.game || e.Snap.Tags.Opponent != m.spec {
		if m.player != nil {
			m.player.Close()
			m.player = nil
		}
		m.game, m.spec = e.Snap.Game, e.Snap.Tags.Opponent
		spec, ok, err := game.ParseOpponent(m.spec)
		switch {
		case err != nil:
			m.log.Error("opponent", "game", m.game, "err", err)
		case ok:
			p, err := m.make(spec, e.Snap)
			if err != nil {
				m.log.Error("opponent", "game", m.game, "opponent", m.spec, "err", err)
			} else {
				m.log.Info("opponent plays", "game", m.game, "opponent", m.spec)
				m.player = p
			}
		}
	}
	if m.player != nil {
		m.player.Handle(e)
	}
}

// Close stops the player.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.player != nil {
		m.player.Close()
		m.player = nil
	}
}
