package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func searchCommand() *cobra.Command {
	var question string
	var k int
	var asJSON, noRerank bool
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the web through a running sift (SIFT_URL, SIFT_KEY)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body := map[string]any{"query": strings.Join(args, " "), "k": k, "rerank": !noRerank}
			if question != "" {
				body["question"] = question
			}
			raw, err := callSift(cmd, "/v1/search", body)
			if err != nil {
				return err
			}
			if asJSON {
				_, err = cmd.OutOrStdout().Write(raw)
				return err
			}
			var answer struct {
				Results []struct {
					URL, Title, Snippet string
				} `json:"results"`
				Warnings []string `json:"warnings"`
			}
			if err := json.Unmarshal(raw, &answer); err != nil {
				return fmt.Errorf("sift answered something that is not JSON: %w", err)
			}
			for _, w := range answer.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			for i, r := range answer.Results {
				fmt.Fprintf(cmd.OutOrStdout(), "%d. %s\n   %s\n   %s\n", i+1, r.Title, r.URL, r.Snippet)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&question, "question", "", "what you want to know (reranks by it instead of the query)")
	cmd.Flags().IntVar(&k, "k", 8, "how many results")
	cmd.Flags().BoolVar(&noRerank, "no-rerank", false, "keep the backends' order")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print sift's whole JSON answer")
	return cmd
}
