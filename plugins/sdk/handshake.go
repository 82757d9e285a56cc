package sdk

import (
	"os"
	"strconv"

	"github.com/hashicorp/go-plugin"
)

// ProtocolVersion is the plugin protocol this SDK speaks (sift.plugin.v1).
const ProtocolVersion = 1

// Names under which the plugins are dispensed.
const (
	KindExtractor = "extractor"
	KindDigester  = "digester"
)

// Environment variables through which the host passes limits to a plugin.
const (
	// EnvMaxMessage is the largest gRPC message, in bytes, either side sends.
	EnvMaxMessage = "SIFT_PLUGIN_MAX_MESSAGE"
	// EnvMemoryLimit is the plugin's memory budget in bytes; the host also
	// enforces it with an rlimit.
	EnvMemoryLimit = "SIFT_PLUGIN_MEMORY"
	// EnvCacheDir names the plugin's own cache directory (see CacheDir).
	EnvCacheDir = "SIFT_PLUGIN_CACHE_DIR"
)

// CacheDir returns the directory sift keeps for this plugin across its
// processes and restarts: this user's, mode 0700, for what is costly to
// make and safe to lose, such as compiled code (sift's PDF plugin keeps
// PDFium compiled there, which saves seconds at every start). A plugin
// process sees no HOME, so this is its only lasting place. ok is false
// when sift gave none: the user has no cache directory, or it is not
// private.
func CacheDir() (dir string, ok bool) {
	dir = os.Getenv(EnvCacheDir)
	return dir, dir != ""
}

// DefaultMaxMessage is used when the host sets no limit: 16 MiB.
const DefaultMaxMessage = 16 << 20

// Handshake is the go-plugin handshake shared by sift and every plugin. It
// is a guard against running a plugin by hand, not a security measure.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "SIFT_PLUGIN",
	MagicCookieValue: "d2c0f6b1-sift-plugin",
}

// PluginSets returns the versioned plugin sets for the given implementations;
// the host passes nil implementations to get client-side stubs.
func PluginSets(ex Extractor, dg Digester) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		ProtocolVersion: {
			KindExtractor: &ExtractorPlugin{Impl: ex},
			KindDigester:  &DigesterPlugin{Impl: dg},
		},
	}
}

// envBytes reads a positive byte count from the environment.
func envBytes(name string, def int) int {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil || n <= 0 {
		return def
	}
	return n
}
