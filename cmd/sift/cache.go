package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/store"
)

func cacheCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Manage the cache in the configured store",
	}
	cmd.AddCommand(cacheClearCommand())
	return cmd
}

func cacheClearCommand() *cobra.Command {
	var cfgPath string
	var stage int
	cmd := &cobra.Command{
		Use:   "clear [--stage N]",
		Short: "Delete cached snapshots: every one, or those of the pipeline's Nth stage (counting from 1)",
		Long: "Deletes cached snapshots from the store the configuration names (SQLite under data_dir, or\n" +
			"PostgreSQL). A running sift stops serving its copies in memory within a second.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, diags := loadConfig(cmd, cfgPath)
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				return err
			}
			index := -1
			if cmd.Flags().Changed("stage") {
				positions := app.CacheStages(cfg)
				if !slices.Contains(positions, stage) {
					return fmt.Errorf("stage %d of the pipeline is not a cache stage; the cache stages are %s", stage, list(positions))
				}
				index = stage - 1
			}
			st, err := store.Open(cmd.Context(), cfg.Store, cfg.DataDir)
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.CacheClear(cmd.Context(), index)
			if err != nil {
				return fmt.Errorf("clear the cache (%d entries deleted before the failure): %w", n, err)
			}
			what := "the cache"
			if index >= 0 {
				what = fmt.Sprintf("the cache of stage %d", stage)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "cleared %s: %d entries\n", what, n)
			return nil
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, configHelp)
	cmd.Flags().IntVar(&stage, "stage", 0, "clear only the snapshots of the pipeline's Nth stage, counting from 1")
	return cmd
}

// list writes positions for a message: "4 and 6", or "none".
func list(positions []int) string {
	if len(positions) == 0 {
		return "none"
	}
	s := make([]string, len(positions))
	for i, p := range positions {
		s[i] = strconv.Itoa(p)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
