package main

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
)

// configHelp describes --config wherever a command takes it.
const configHelp = "configuration file (without the flag: ./config.hcl, else the embedded default)"

// loadConfig reads the file --config names. Without the flag it reads
// ./config.hcl, or the embedded default (config.Default) when there is none.
func loadConfig(cmd *cobra.Command, path string) (*config.Config, hcl.Diagnostics) {
	if !cmd.Flags().Changed("config") && path == config.DefaultFile {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return config.Parse(config.Default, config.DefaultName)
		}
	}
	return config.LoadFile(path)
}

// report prints diagnostics and turns errors among them into exitError.
func report(w io.Writer, cfg *config.Config, diags hcl.Diagnostics) error {
	if len(diags) == 0 {
		return nil
	}
	if err := app.WriteDiagnostics(w, cfg, diags); err != nil {
		return err
	}
	if diags.HasErrors() {
		return exitError{}
	}
	return nil
}
