package host

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/hashicorp/go-plugin"

	"github.com/siftd/sift/plugins/sdk"
)

// pluginVersion finds the protocol version a plugin offered in go-plugin's
// refusal ("incompatible API version with plugin. Plugin version: 2, …").
var pluginVersion = regexp.MustCompile(`incompatible API version with plugin\. Plugin version: (\d+)`)

// explainStart turns go-plugin's start errors that an operator or a plugin
// author must act on into sentences saying what happened and what to do.
func explainStart(s *Spec, err error) error {
	if errors.Is(err, plugin.ErrChecksumsDoNotMatch) {
		got := "unreadable"
		if sum, herr := FileSHA256(s.Command[0]); herr == nil {
			got = sum
		}
		return fmt.Errorf("binary %s has SHA-256 %s but the configuration says %s (it changed after sift checked it); refusing to run it: %w",
			s.Command[0], got, s.SHA256, err)
	}
	if m := pluginVersion.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("plugin protocol mismatch: the plugin speaks version %s, this sift speaks version %d; "+
			"build the plugin against a release of plugins/sdk that speaks version %d (plugins/sdk/README.md lists them), or run a sift that speaks version %s",
			m[1], sdk.ProtocolVersion, sdk.ProtocolVersion, m[1])
	}
	return err
}
