package main

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/stages"
	guardstage "github.com/siftd/sift/stages/guard"
)

func guardCommand() *cobra.Command {
	var cfgPath string
	var noResolve bool
	cmd := &cobra.Command{
		Use:   "guard [--no-resolve] URL...",
		Short: "Check URLs against the guard: one line per URL, allow or block with the reason",
		Long: `Runs the guard of the configured pipeline on each URL and prints
"allow <url>" or "block <url>: <reason>". Exits 0 when every URL is allowed,
1 otherwise. --no-resolve applies only the checks that need no DNS.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			policy, err := guardPolicy(cmd, cfgPath)
			if err != nil {
				return err
			}
			anyBlocked := false
			for _, raw := range args {
				reason := checkURL(cmd.Context(), policy, raw, noResolve)
				if reason == "" {
					fmt.Fprintf(cmd.OutOrStdout(), "allow %s\n", raw)
					continue
				}
				anyBlocked = true
				fmt.Fprintf(cmd.OutOrStdout(), "block %s: %s\n", raw, reason)
			}
			if anyBlocked {
				return exitError{}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, "configuration file whose guard stage applies (without the flag: ./config.hcl, else the embedded default)")
	cmd.Flags().BoolVar(&noResolve, "no-resolve", false, "skip DNS: only the checks PreCheck makes")
	return cmd
}

// checkURL returns why raw is refused, or "".
func checkURL(ctx context.Context, p *guard.Policy, raw string, noResolve bool) string {
	var err error
	if noResolve {
		_, err = p.PreCheck(raw)
	} else {
		ctx, cancel := context.WithTimeout(ctx, guard.ResolveTimeout)
		defer cancel()
		_, err = p.Check(ctx, raw, net.DefaultResolver)
	}
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), "blocked: ")
}

// guardPolicy reads the guard stage of the configuration; without one the
// default policy applies.
func guardPolicy(cmd *cobra.Command, path string) (*guard.Policy, error) {
	cfg, diags := loadConfig(cmd, path)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return nil, err
	}
	for _, st := range cfg.Stages {
		if st.Kind != "guard" {
			continue
		}
		// The stage's own constructor decodes its block: one schema, one
		// owner. It does no I/O.
		g, diags := guardstage.New(st.Body, stages.Deps{})
		if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
			return nil, err
		}
		return g.(*guardstage.Stage).Policy(), nil
	}
	return guard.DefaultPolicy(), nil
}
