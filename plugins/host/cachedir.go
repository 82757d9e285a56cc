package host

import (
	"fmt"
	"os"
	"path/filepath"
)

// cacheDir makes, or finds, a plugin's own cache directory: the user's
// cache directory, then sift/plugins/NAME, mode 0700 and this user's. A
// plugin process has no HOME (see pluginEnv), so without it every start
// would redo what a plugin keeps there; the PDF plugin's compiled PDFium
// took about 4 s a start before it had one. An error means the plugin
// runs without a cache.
func cacheDir(name string) (string, error) {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
		return "", fmt.Errorf("plugin cache directory: %q cannot name a directory", name)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("plugin cache directory: %w", err)
	}
	dir := filepath.Join(base, "sift", "plugins", name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("plugin cache directory: %w", err)
	}
	// What the plugin keeps here may be code it runs: a directory another
	// user could write to, or a symlink to one, is not used.
	if err := checkOwnDir(dir); err != nil {
		return "", fmt.Errorf("plugin cache directory: %w", err)
	}
	return dir, nil
}
