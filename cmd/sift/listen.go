package main

import (
	"fmt"
	"net"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
)

// listenEnv names the variable that sets serve's address, as --listen
// does: for a quick try on another port without a configuration file.
const listenEnv = "SIFT_LISTEN"

// loadServeConfig is loadConfig with the address --listen or SIFT_LISTEN
// gives (the flag first) in place of the file's listen; a public_url the
// file does not set follows the new address. The checks that read listen
// (the development key only on loopback) then see the address sift will
// listen on. A reload applies it again, so it holds for the process's life.
func loadServeConfig(cmd *cobra.Command, cfgPath string) (*config.Config, hcl.Diagnostics) {
	cfg, diags := loadConfig(cmd, cfgPath)
	if cfg == nil || diags.HasErrors() {
		return cfg, diags
	}
	listen, from := os.Getenv(listenEnv), listenEnv
	if f := cmd.Flags().Lookup("listen"); f != nil && f.Changed {
		listen, from = f.Value.String(), "--listen"
	}
	if listen == "" {
		return cfg, diags
	}
	if _, _, err := net.SplitHostPort(listen); err != nil {
		return cfg, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid listen address",
			Detail: fmt.Sprintf("%s %q: %v (want host:port, such as 127.0.0.1:8891)", from, listen, err)})
	}
	if cfg.PublicURL == config.DefaultPublicURL(cfg.Listen) {
		cfg.PublicURL = config.DefaultPublicURL(listen)
	}
	cfg.Listen = listen
	return cfg, diags
}
