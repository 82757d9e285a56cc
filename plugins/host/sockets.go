package host

import (
	"fmt"
	"os"
)

// maxSocketBase is the longest base directory that leaves room, under the
// 104 bytes a socket path may have, for this directory's name and the
// plugin's socket (go-plugin names it "plugin" and ten digits).
const maxSocketBase = 104 - len("/sift-0123456789/plugin0123456789") - 1

// socketDir makes the directory a pool's plugin processes make their sockets in:
// new, this user's, mode 0700 whatever the umask, so no other local user
// can connect to a plugin (and call Extract, or go-plugin's Shutdown),
// however the socket itself is made.
func socketDir() (string, error) {
	base := os.TempDir()
	if len(base) > maxSocketBase {
		// A socket's path has a short limit (104 bytes on some systems);
		// under a long TMPDIR the plugin could not bind.
		base = shortTempDir
	}
	dir, err := os.MkdirTemp(base, "sift-")
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
		return "", fmt.Errorf("plugin socket directory: %w", err)
	}
	return dir, nil
}
