package guard

import (
	"errors"
	"fmt"
)

// ErrBlocked is matched by every refusal (errors.Is).
var ErrBlocked = errors.New("blocked")

// Blocked is a policy refusal. Its text starts "blocked: " and names the
// reason, so an agent knows retrying cannot help.
type Blocked struct {
	Reason string
}

// Error returns "blocked: " and the reason.
func (b *Blocked) Error() string { return "blocked: " + b.Reason }

// Is makes errors.Is(err, ErrBlocked) true for every refusal.
func (b *Blocked) Is(target error) bool { return target == ErrBlocked }

// Refuse returns a policy refusal ("blocked: " and the reason) for checks
// made outside this package, such as a redirect that downgrades https.
func Refuse(format string, args ...any) error {
	return &Blocked{Reason: fmt.Sprintf(format, args...)}
}

func blocked(format string, args ...any) error {
	return &Blocked{Reason: fmt.Sprintf(format, args...)}
}
