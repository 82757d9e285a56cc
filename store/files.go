package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// fileMode is the mode of every file sift keeps under data_dir: the
// cache holds the pages callers fetched and the batch tables their
// targets, which are no other user's to read.
const fileMode = 0o600

// prepareSQLite makes data_dir and the database file private before
// SQLite opens it. SQLite creates its -wal and -shm files with the mode of
// the database file, so a database created 0600 keeps them 0600 whatever
// the umask and the directory's mode; files a looser sift left behind are
// tightened. It returns a warning when data_dir itself is open to others.
func prepareSQLite(dataDir string) (warning string, err error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("create data_dir: %w", err)
	}
	db := filepath.Join(dataDir, FileName)
	if err := restrict(db, true); err != nil {
		return "", err
	}
	for _, side := range []string{db + "-wal", db + "-shm", db + "-journal"} {
		if err := restrict(side, false); err != nil {
			return "", err
		}
	}
	fi, err := os.Stat(dataDir)
	if err != nil {
		return "", fmt.Errorf("data_dir: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("data_dir %s has mode %#o: other users can list it (sift's files in it are %#o; chmod 700 %s)",
			dataDir, perm, fileMode, dataDir), nil
	}
	return "", nil
}

// restrict opens path without following a symlink, creating it when
// create is set, and sets its mode to fileMode. A missing file that need
// not be created is left missing.
func restrict(path string, create bool) error {
	flags := os.O_RDWR | noFollow
	if create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, fileMode)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Chmod(fileMode); err != nil { // fchmod: the umask does not apply
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	return nil
}
