package sim

import "fmt"

// PCA9548 emulates an 8-channel I²C multiplexer. Its one register is the
// channel mask (bit i connects channel i; several may be on); it reads back
// as written and is 0 (no channel) at power-on. The devices attached to a
// channel answer on the bus only while that channel is on.
type PCA9548 struct {
	chip
	ctrl uint8
	ch   [8]map[uint16]Device
}

// NewPCA9548 returns a multiplexer in its power-on state; addr is used in
// error messages.
func NewPCA9548(addr uint16) *PCA9548 {
	m := &PCA9548{}
	m.name = fmt.Sprintf("pca9548 0x%02x", addr)
	m.reset = func() { m.ctrl = 0 }
	for i := range m.ch {
		m.ch[i] = map[uint16]Device{}
	}
	return m
}

// Attach connects d at addr on channel ch (0..7).
func (m *PCA9548) Attach(ch int, addr uint16, d Device) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ch < 0 || ch > 7 {
		return fmt.Errorf("sim: %s: no channel %d", m.name, ch)
	}
	if _, dup := m.ch[ch][addr]; dup {
		return fmt.Errorf("sim: %s: channel %d: address 0x%02x already taken", m.name, ch, addr)
	}
	m.ch[ch][addr] = d
	return nil
}

// Channels is the channel mask: bit i is set while channel i is on.
func (m *PCA9548) Channels() uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ctrl
}

// Tx implements Device: a written byte sets the channel mask (the last one
// counts), a read returns it.
func (m *PCA9548) Tx(w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.fault(len(r))
	if err != nil && n == 0 {
		return err
	}
	if len(w) > 0 {
		m.ctrl = w[len(w)-1]
	}
	for i := range r {
		if i < n {
			r[i] = m.ctrl
		} else {
			r[i] = 0xFF
		}
	}
	return err
}

// route finds the devices at addr on the channels that are on.
func (m *PCA9548) route(addr uint16) (Device, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone || m.ctrl == 0 {
		return nil, 0
	}
	var found Device
	n := 0
	for i := range m.ch {
		if m.ctrl&(1<<i) == 0 {
			continue
		}
		if d, ok := m.ch[i][addr]; ok {
			found = d
			n++
		}
	}
	return found, n
}
