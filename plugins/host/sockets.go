package host

import (
	"fmt"
	"os"
)

// socketDir makes the directory a Host's plugins make their sockets in:
// new, this user's, mode 0700 whatever the umask, so no other local user
// can connect to a plugin (and call Extract, or go-plugin's Shutdown),
// however the socket itself is made.
func socketDir() (string, error) {
	dir, err := os.MkdirTemp("", "sift-plugins-")
	if err != nil {
		return "", fmt.Errorf("plugin socket directory: %w", err)
	}
	// MkdirTemp asks for 0700; a umask can only take bits away.
	if err := os.Chmod(dir, 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("plugin socket directory: %w", err)
	}
	if err := checkOwnDir(dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}
