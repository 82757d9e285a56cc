package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/plugins/sdk"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

func siftVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print sift's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "sift %s (%s, plugin protocol %d)\n", siftVersion(), runtime.Version(), sdk.ProtocolVersion)
		},
	}
}

func pluginCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:    "plugin NAME",
		Short:  "Run a built-in plugin (started by sift itself)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			// main handles a well-formed `sift plugin NAME` before cobra runs.
			return fmt.Errorf("no built-in plugin %q", args[0])
		},
	}
	cmd.AddCommand(pluginNewCommand())
	return cmd
}
