//go:build !unix

package host

import "os"

// shortTempDir is unused where plugins speak TCP; the temporary
// directory does.
var shortTempDir = os.TempDir()

// checkOwnDir has nothing to check where plugins do not use Unix sockets.
func checkOwnDir(string) error { return nil }
