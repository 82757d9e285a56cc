package main

import (
	"fmt"
	"strings"

	"github.com/siftd/sift/internal/apiv1"
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
			rerank := !noRerank
			body := apiv1.SearchRequest{Query: strings.Join(args, " "), Question: question, K: k, Rerank: &rerank}
			raw, err := callSift(cmd, "/v1/search", body)
			if err != nil {
				return err
			}
			var answer apiv1.SearchAnswer
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
