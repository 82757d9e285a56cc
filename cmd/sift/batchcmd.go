package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// batchCommand is the client of a running sift's batch API.
func batchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "batch",
		Short: "Submit a list of URLs to a running sift and collect the results later",
	}
	cmd.AddCommand(batchSubmitCommand(), batchStatusCommand(), batchGetCommand(), batchCancelCommand())
	return cmd
}

func batchSubmitCommand() *cobra.Command {
	var wait bool
	cmd := &cobra.Command{
		Use:   "submit FILE|-",
		Short: "Submit targets: a JSON {\"targets\": […]}, a JSON array of URLs or targets, or one URL per line",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := readTargets(cmd, args[0])
			if err != nil {
				return err
			}
			targets, err := parseBatchTargets(in)
			if err != nil {
				return err
			}
			raw, err := callSift(cmd, "/v1/batch", map[string]any{"targets": targets})
			if err != nil {
				return err
			}
			if !wait {
				return printJSON(cmd, raw)
			}
			var sub struct {
				JobID string `json:"job_id"`
			}
			if err := json.Unmarshal(raw, &sub); err != nil {
				return fmt.Errorf("sift answered something that is not JSON: %w", err)
			}
			return waitForJob(cmd, sub.JobID, false)
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for the job to finish, with progress, and print its summary")
	return cmd
}

func batchStatusCommand() *cobra.Command {
	var results, wait bool
	cmd := &cobra.Command{
		Use:   "status JOB_ID",
		Short: "Print a job's summary (--results inlines every result)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if wait {
				return waitForJob(cmd, args[0], results)
			}
			raw, err := jobWithResults(cmd, args[0], results)
			if err != nil {
				return err
			}
			return printJSON(cmd, raw)
		},
	}
	cmd.Flags().BoolVar(&results, "results", false, "inline every finished target's result")
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for the job to finish, with progress")
	return cmd
}

func batchGetCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "get JOB_ID IDX",
		Short: "Print one target's status and result",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := callSiftMethod(cmd, "GET", "/v1/batch/"+url.PathEscape(args[0])+"/"+url.PathEscape(args[1]), nil)
			if err != nil {
				return err
			}
			return printJSON(cmd, raw)
		},
	}
}

func batchCancelCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "cancel JOB_ID",
		Short: "Cancel a job: the target in flight finishes, the rest are not fetched",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := callSiftMethod(cmd, "DELETE", "/v1/batch/"+url.PathEscape(args[0]), nil)
			if err != nil {
				return err
			}
			return printJSON(cmd, raw)
		},
	}
}

func jobPath(id string, results bool, wait string) string {
	q := url.Values{}
	if results {
		q.Set("results", "1")
	}
	if wait != "" {
		q.Set("wait", wait)
	}
	p := "/v1/batch/" + url.PathEscape(id)
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// waitForJob long-polls the job until it finishes, showing its progress on
// stderr, then prints the summary.
func waitForJob(cmd *cobra.Command, id string, results bool) error {
	progress := newProgress(cmd.ErrOrStderr())
	for {
		raw, err := callSiftMethod(cmd, "GET", jobPath(id, false, "25s"), nil)
		if err != nil {
			return err
		}
		var job struct {
			Status       string `json:"status"`
			TargetsTotal int    `json:"targets_total"`
			TargetsDone  int    `json:"targets_done"`
		}
		if err := json.Unmarshal(raw, &job); err != nil {
			return fmt.Errorf("sift answered something that is not JSON: %w", err)
		}
		progress.show(job.TargetsDone, job.TargetsTotal, job.Status)
		if job.Status != "queued" && job.Status != "running" {
			progress.end()
			if results {
				if raw, err = jobWithResults(cmd, id, true); err != nil {
					return err
				}
			}
			return printJSON(cmd, raw)
		}
	}
}

// jobWithResults reads the job's summary, or with results every page of
// them (sift answers at most 8 MiB of results a page, with `next`),
// joined into one job.
func jobWithResults(cmd *cobra.Command, id string, results bool) ([]byte, error) {
	raw, err := callSiftMethod(cmd, "GET", jobPath(id, results, ""), nil)
	if err != nil || !results {
		return raw, err
	}
	var job map[string]json.RawMessage
	if err := json.Unmarshal(raw, &job); err != nil {
		return nil, fmt.Errorf("sift answered something that is not JSON: %w", err)
	}
	var targets []json.RawMessage
	for {
		var page []json.RawMessage
		var next string
		if err := json.Unmarshal(job["targets"], &page); err != nil {
			return nil, fmt.Errorf("sift answered a job without targets: %w", err)
		}
		targets = append(targets, page...)
		if n, ok := job["next"]; !ok || json.Unmarshal(n, &next) != nil || next == "" {
			break
		}
		if raw, err = callSiftMethod(cmd, "GET", next, nil); err != nil {
			return nil, err
		}
		clear(job)
		if err := json.Unmarshal(raw, &job); err != nil {
			return nil, fmt.Errorf("sift answered something that is not JSON: %w", err)
		}
	}
	delete(job, "next")
	if job["targets"], err = json.Marshal(targets); err != nil {
		return nil, err
	}
	return json.Marshal(job)
}

// progress reports a job's state on stderr: a bar redrawn in place on a
// terminal, else a plain line whenever the state changes.
type progress struct {
	w        io.Writer
	terminal bool
	last     string
}

func newProgress(w io.Writer) *progress {
	if tw, ok := w.(terminalWriter); ok {
		// The bar is sift's own drawing, redrawn with carriage returns.
		return &progress{w: tw.f, terminal: true}
	}
	f, ok := w.(*os.File)
	return &progress{w: w, terminal: ok && term.IsTerminal(int(f.Fd()))}
}

func (p *progress) show(done, total int, status string) {
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s", progressBar(done, total, status))
		return
	}
	line := fmt.Sprintf("%d/%d %s", done, total, status)
	if line != p.last {
		fmt.Fprintln(p.w, line)
		p.last = line
	}
}

func (p *progress) end() {
	if p.terminal {
		fmt.Fprintln(p.w)
	}
}

// progressBar draws "[########------------]  3/8 running".
func progressBar(done, total int, status string) string {
	const width = 20
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	return fmt.Sprintf("[%s%s] %d/%d %-9s", strings.Repeat("#", filled), strings.Repeat("-", width-filled), done, total, status)
}

func printJSON(cmd *cobra.Command, raw []byte) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		_, err = cmd.OutOrStdout().Write(raw)
		return err
	}
	buf.WriteByte('\n')
	_, err := buf.WriteTo(cmd.OutOrStdout())
	return err
}

func readTargets(cmd *cobra.Command, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(cmd.InOrStdin(), 1<<20))
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read targets: %w", err)
	}
	return b, nil
}

// parseBatchTargets reads targets as {"targets": […]}, as a JSON array of
// URLs or target objects, or as text with one URL per line (# comments
// and blank lines skipped).
func parseBatchTargets(in []byte) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(in)
	switch {
	case len(trimmed) == 0:
		return nil, errors.New("no targets given")
	case trimmed[0] == '{':
		var doc struct {
			Targets []json.RawMessage `json:"targets"`
		}
		if err := json.Unmarshal(trimmed, &doc); err != nil {
			return nil, fmt.Errorf("targets file: %w", err)
		}
		return normaliseTargets(doc.Targets)
	case trimmed[0] == '[':
		var list []json.RawMessage
		if err := json.Unmarshal(trimmed, &list); err != nil {
			return nil, fmt.Errorf("targets file: %w", err)
		}
		return normaliseTargets(list)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(trimmed))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, _ := json.Marshal(map[string]string{"url": line})
		out = append(out, b)
	}
	return out, sc.Err()
}

// normaliseTargets turns bare URL strings into {"url": …} objects.
func normaliseTargets(list []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(list))
	for i, t := range list {
		var u string
		if json.Unmarshal(t, &u) == nil {
			out[i], _ = json.Marshal(map[string]string{"url": u})
			continue
		}
		if len(bytes.TrimSpace(t)) == 0 || bytes.TrimSpace(t)[0] != '{' {
			return nil, fmt.Errorf("targets[%d] is neither a URL nor an object", i)
		}
		out[i] = t
	}
	return out, nil
}
