package main

import (
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
			var answer struct {
				Results []struct {
					URL, Title, Snippet string
				} `json:"results"`
			}
			if done, err := readAnswer(cmd, raw, asJSON, &answer); done || err != nil {
				return err
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
