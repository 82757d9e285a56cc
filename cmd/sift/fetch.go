package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/internal/apiv1"
	"github.com/siftd/sift/internal/siftclient"
)

func fetchCommand() *cobra.Command {
	var mode, question string
	var maxTokens int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "fetch URL",
		Short: "Fetch a URL through a running sift (SIFT_URL, SIFT_KEY) and print the content",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body := apiv1.FetchRequest{URL: args[0], Mode: mode, Question: question}
			if cmd.Flags().Changed("max-tokens") {
				body.MaxTokens = &maxTokens
			}
			raw, err := callSift(cmd, "/v1/fetch", body)
			if err != nil {
				return err
			}
			var answer apiv1.FetchAnswer
			done, err := readAnswer(cmd, raw, asJSON, &answer)
			if err != nil {
				return err
			}
			if done {
				// The whole answer is printed; the exit code still says
				// whether the origin answered an error status.
				_ = json.Unmarshal(raw, &answer)
			} else if _, err := io.WriteString(cmd.OutOrStdout(), strings.TrimRight(answer.Content, "\n")+"\n"); err != nil {
				return err
			}
			return originExit(answer.Source.Status)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "clean", "clean, raw or digest")
	cmd.Flags().StringVar(&question, "question", "", "what you want from the page (focuses a digest)")
	cmd.Flags().IntVar(&maxTokens, "max-tokens", 0, "at most this many tokens: the parts most relevant to --question, else the beginning")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print sift's whole JSON answer")
	return cmd
}

// readAnswer prints sift's answer as it is when asJSON; otherwise it
// prints the answer's warnings on stderr and decodes it into v. done says
// the answer has been printed.
func readAnswer(cmd *cobra.Command, raw []byte, asJSON bool, v any) (done bool, err error) {
	if asJSON {
		_, err = cmd.OutOrStdout().Write(raw)
		return true, err
	}
	var w struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return false, fmt.Errorf("sift answered something that is not JSON: %w", err)
	}
	for _, warning := range w.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", warning)
	}
	return false, json.Unmarshal(raw, v)
}

// callSift posts body to a running sift and returns the answer, or an
// error carrying sift's own message.
func callSift(cmd *cobra.Command, path string, body any) ([]byte, error) {
	return callSiftMethod(cmd, http.MethodPost, path, body)
}

// callSiftMethod sends a request to a running sift (SIFT_URL, SIFT_KEY)
// and returns a 2xx answer; other answers become errors with sift's own
// message. A nil body sends none.
func callSiftMethod(cmd *cobra.Command, method, path string, body any) ([]byte, error) {
	resp, err := siftclient.FromEnv().Call(cmd.Context(), method, path, body)
	if err != nil {
		return nil, err
	}
	if e := resp.Err(); e != nil {
		if e.Status == http.StatusUnauthorized {
			return nil, withClassExit(fmt.Errorf("%w (set SIFT_KEY to the caller's key)", e), e.Message)
		}
		return nil, withAnswerExit(e, e.Status, e.Message)
	}
	return resp.Body, nil
}
