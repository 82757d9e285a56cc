package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
)

func validateCommand() *cobra.Command {
	var file string
	var noEnvironment bool
	cmd := &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check a configuration file and print every problem with its line",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := file
			if len(args) == 1 {
				if cmd.Flags().Changed("config") && args[0] != file {
					return fmt.Errorf("validate takes one file: give it as an argument or with --config, not both")
				}
				path = args[0]
			}
			cfg, diags := config.LoadFile(path)
			if cfg != nil {
				// Report every problem at once, the envelope's and the
				// stages' and plugins' alike.
				if noEnvironment {
					diags = append(diags, app.CheckFile(cmd.Context(), cfg)...)
				} else {
					diags = append(diags, app.Check(cmd.Context(), cfg)...)
				}
			}
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", path)
			return nil
		},
	}
	// --config as every other command takes it, beside the argument.
	cmd.Flags().StringVar(&file, "config", config.DefaultFile, "configuration file to check (or give it as the argument)")
	cmd.Flags().BoolVar(&noEnvironment, "no-environment", false,
		"check the file alone, not what this environment gives it: the variables it names, and each extractor block's process within its memory (for a file checked where sift will not run, as the NixOS module's build does)")
	return cmd
}
