package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/plugins/sdk"
)

// version and revision are set at build time with -ldflags
// "-X main.version=… -X main.revision=…" (the flake does).
var (
	version  = ""
	revision = ""
)

// siftRevision is the VCS revision sift was built from: the one the build
// was given, else the one Go recorded ("-dirty" when the tree had
// changes), else "unknown".
func siftRevision() string {
	if revision != "" {
		return revision
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	switch {
	case rev == "":
		return "unknown"
	case dirty:
		return rev + "-dirty"
	}
	return rev
}

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

// pluginCommand groups the plugin author's commands (`sift plugin new`).
// `sift plugin NAME`, how sift runs a built-in, is handled by main before
// cobra runs; a NAME that reaches here names no built-in.
func pluginCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugin",
		Short: "Write plugins: `sift plugin new NAME` scaffolds a plugin module with a test",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return fmt.Errorf("no built-in plugin %q (sift plugins lists the plugins a configuration runs; sift plugin new NAME writes one)", args[0])
		},
	}
	cmd.AddCommand(pluginNewCommand())
	return cmd
}
