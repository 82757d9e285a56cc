package main

import (
	"errors"
	"fmt"
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
		return loadWorkingDirConfig(path)
	}
	return config.LoadFile(path)
}

// loadWorkingDirConfig reads ./config.hcl only when it is the user's own
// and no one else can write it: a configuration names the binaries sift
// runs, and a working directory may be shared (a checkout, /tmp), so a file
// planted there must not be picked up unasked. The checks and the read
// use one descriptor, so the file cannot change between them.
func loadWorkingDirConfig(path string) (*config.Config, hcl.Diagnostics) {
	f, err := openNoFollow(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Parse(config.Default, config.DefaultName)
	}
	if err != nil {
		return nil, refuseConfig(path, err.Error())
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, refuseConfig(path, err.Error())
	}
	if why := untrusted(fi); why != "" {
		return nil, refuseConfig(path, why)
	}
	src, err := io.ReadAll(f)
	if err != nil {
		return nil, refuseConfig(path, err.Error())
	}
	return config.Parse(src, path)
}

// untrusted says why a configuration file found in the working directory
// is not to be loaded, or "" when it may be.
func untrusted(fi fs.FileInfo) string {
	if !fi.Mode().IsRegular() {
		return "it is not a regular file"
	}
	if uid, ok := owner(fi); ok && uid != os.Geteuid() {
		return fmt.Sprintf("it belongs to another user (uid %d)", uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("others can write it (mode %#o)", perm)
	}
	return ""
}

func refuseConfig(path, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Refusing ./" + path,
		Detail: fmt.Sprintf("sift reads ./%s from the working directory only when it is yours and no one else can write it, "+
			"and %s. Name the file with --config to use it anyway, or run sift from another directory.", path, why)}}
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
