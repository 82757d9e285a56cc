package stages

import (
	"context"
	"fmt"
)

// Pending is a configured stage whose behaviour is not built yet. It
// refuses every request with ErrNotImplemented instead of pretending to
// work, so a chain that lists it fails loudly, naming the stage.
type Pending struct{ Kind string }

// Run always fails with ErrNotImplemented.
func (p Pending) Run(context.Context, *Doc) error {
	return fmt.Errorf("%w: the %s stage is not built yet", ErrNotImplemented, p.Kind)
}
