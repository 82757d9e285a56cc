//go:build !unix

package host

// checkOwnDir has nothing to check where plugins do not use Unix sockets.
func checkOwnDir(string) error { return nil }
