package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/spf13/cobra"
)

func keyCommand() *cobra.Command {
	key := &cobra.Command{Use: "key", Short: "Manage caller keys"}
	key.AddCommand(&cobra.Command{
		Use:   "new NAME",
		Short: "Print a fresh random key and the caller block that holds its hash",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw := make([]byte, 32)
			if _, err := rand.Read(raw); err != nil {
				return fmt.Errorf("generate key: %w", err)
			}
			k := "sk-sift-" + hex.EncodeToString(raw)
			sum := sha256.Sum256([]byte(k))
			fmt.Fprintf(cmd.OutOrStdout(), "# key: %s\ncaller %q {\n  key_sha256 = %q\n  workspace  = \"default\"\n  restricted = false\n}\n",
				k, args[0], hex.EncodeToString(sum[:]))
			return nil
		},
	})
	return key
}
