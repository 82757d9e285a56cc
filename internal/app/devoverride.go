package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/host"
)

// EnvDevOverrides names local plugin binaries that replace configured
// external plugins while their author works on them, without a pin:
// "NAME=/abs/path[,NAME=/abs/path…]". Each use is logged as a warning.
const EnvDevOverrides = "SIFT_PLUGIN_DEV_OVERRIDES"

// ApplyDevOverrides applies EnvDevOverrides to cfg, warning on log of each
// block it overrides. A command calls it once, right after reading its
// configuration, so the warning reaches the user even when a warm
// extractor does the work, and what it hashes or lists names the binary
// that really runs; Load applies it too, a no-op on blocks already done.
func ApplyDevOverrides(cfg *config.Config, log *slog.Logger) hcl.Diagnostics {
	return devOverrides(os.Getenv(EnvDevOverrides), cfg, log)
}

// devOverrides applies EnvDevOverrides (its value given) to the external
// extractor and digester blocks it names: the block runs the named binary,
// pinned to the hash it has now instead of the configured one, and is
// marked DevOverride. A block already marked is left alone, unwarned. An
// entry naming no external block, or a path that is not absolute, is an
// error.
func devOverrides(value string, cfg *config.Config, log *slog.Logger) hcl.Diagnostics {
	if strings.TrimSpace(value) == "" {
		return nil
	}
	var diags hcl.Diagnostics
	bad := func(detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + EnvDevOverrides, Detail: detail})
	}
	for _, entry := range strings.Split(value, ",") {
		name, path, ok := strings.Cut(strings.TrimSpace(entry), "=")
		if !ok || name == "" || !filepath.IsAbs(path) {
			bad(fmt.Sprintf("entry %q: want NAME=/absolute/path/to/the/binary", entry))
			continue
		}
		b := externalBlock(cfg, name)
		if b == nil {
			bad(fmt.Sprintf("entry %q: no external extractor or digester block is named %q", entry, name))
			continue
		}
		if b.DevOverride {
			continue
		}
		sum, err := host.FileSHA256(path)
		if err != nil {
			bad(fmt.Sprintf("entry %q: %v", entry, err))
			continue
		}
		log.Warn("DEVELOPMENT OVERRIDE: plugin runs a local binary without its configured pin; never use this in production",
			"plugin", name, "binary", path, "sha256", sum, "configured_command", b.Command[0], "configured_sha256", b.SHA256)
		b.Command = append([]string{path}, b.Command[1:]...)
		b.SHA256 = sum
		b.DevOverride = true
	}
	return diags
}

func externalBlock(cfg *config.Config, name string) *config.Plugin {
	for _, blocks := range [][]config.Plugin{cfg.Extractors, cfg.Digesters} {
		for i := range blocks {
			if blocks[i].Name == name && len(blocks[i].Command) > 0 {
				return &blocks[i]
			}
		}
	}
	return nil
}
