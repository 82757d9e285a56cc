package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// defaultSiftURL is where the CLI clients look for sift.
const defaultSiftURL = "http://127.0.0.1:8890"

func fetchCommand() *cobra.Command {
	var mode, question string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "fetch URL",
		Short: "Fetch a URL through a running sift (SIFT_URL, SIFT_KEY) and print the content",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body := map[string]any{"url": args[0], "mode": mode}
			if question != "" {
				body["question"] = question
			}
			raw, err := callSift(cmd, "/v1/fetch", body)
			if err != nil {
				return err
			}
			var answer struct {
				Content string `json:"content"`
			}
			if done, err := readAnswer(cmd, raw, asJSON, &answer); done || err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), strings.TrimRight(answer.Content, "\n")+"\n")
			return err
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "clean", "clean, raw or digest")
	cmd.Flags().StringVar(&question, "question", "", "what you want from the page (focuses a digest)")
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
	base := strings.TrimRight(os.Getenv("SIFT_URL"), "/")
	if base == "" {
		base = defaultSiftURL
	}
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(cmd.Context(), method, base+path, payload)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key := os.Getenv("SIFT_KEY"); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Do(req)
	if err != nil {
		return nil, fmt.Errorf("reach sift at %s (set SIFT_URL): %w", base, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("read sift's answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
			Hint  string `json:"hint"`
		}
		if json.Unmarshal(raw, &e) == nil && e.Error != "" {
			if resp.StatusCode == http.StatusUnauthorized {
				return nil, fmt.Errorf("%s (set SIFT_KEY to the caller's key)", e.Error)
			}
			if e.Hint != "" {
				return nil, fmt.Errorf("%s (hint: %s)", e.Error, e.Hint)
			}
			return nil, fmt.Errorf("%s", e.Error)
		}
		return nil, fmt.Errorf("sift answered %s", resp.Status)
	}
	return raw, nil
}
