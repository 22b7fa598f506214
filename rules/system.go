package rules

// SystemOf is a System built from a rule system's parts: its name, its cell
// list, its start position and its position-string reader. P is the
// system's position type, whose pointer PP is its Position. Each system's
// package publishes one (st3d.System, millennium.System,
// firstcontact.System and firstcontact.UpOnly; st3d's option systems embed
// one), so the adapter is written once.
type SystemOf[P any, PP interface {
	*P
	Position
}] struct {
	name  string
	cells func() []string
	start func() P
	parse func(string) (P, error)
}

// NewSystem makes the System called name. cells and start are functions
// because a system's tables and start position are built when its package
// initialises, after its variables are; parse reads a position string.
func NewSystem[P any, PP interface {
	*P
	Position
}](name string, cells func() []string, start func() P, parse func(string) (P, error)) *SystemOf[P, PP] {
	return &SystemOf[P, PP]{name: name, cells: cells, start: start, parse: parse}
}

// Name is the short name used on command lines and in records.
func (s *SystemOf[P, PP]) Name() string { return s.name }

// Cells lists the sensing cells by name; the slice must not be changed.
func (s *SystemOf[P, PP]) Cells() []string { return s.cells() }

// Start is a new copy of the start position.
func (s *SystemOf[P, PP]) Start() Position {
	p := s.start()
	return PP(&p)
}

// ParsePosition reads a position string; the error says what is wrong and
// where.
func (s *SystemOf[P, PP]) ParsePosition(str string) (Position, error) {
	p, err := s.parse(str)
	if err != nil {
		return nil, err
	}
	return PP(&p), nil
}
