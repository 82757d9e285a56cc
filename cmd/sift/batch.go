package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// runBatch speaks the extraction benchmark's batch protocol, keeping one
// warm plugin pool for every page; the -o options apply to every page.
func runBatch(cmd *cobra.Command, f extractFlags) error {
	mediaType := f.typ
	if mediaType == "" {
		mediaType = "text/html"
	}
	opts, err := parseOptions(f.options)
	if err != nil {
		return err
	}
	cfg, diags := loadConfig(cmd, f.config)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return err
	}
	ex, closeFn, err := startExtractor(cmd, cfg, mediaType, "", nil)
	if err != nil {
		return err
	}
	defer closeFn()
	in := bufio.NewReaderSize(cmd.InOrStdin(), 1<<16)
	out := bufio.NewWriter(cmd.OutOrStdout())
	for {
		body, pageURL, err := readPage(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		content, ms, status := extractPage(cmd, ex, mediaType, pageURL, body, opts)
		fmt.Fprintf(out, "%d %.3f %s\n%s", len(content), ms, status, content)
		if err := out.Flush(); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
}

// readPage reads "<nbytes> <url>\n" and then exactly nbytes bytes.
func readPage(in *bufio.Reader) ([]byte, string, error) {
	header, err := in.ReadString('\n')
	if err != nil {
		if header == "" && errors.Is(err, io.EOF) {
			return nil, "", io.EOF
		}
		if errors.Is(err, io.EOF) {
			// A header cut short is a broken stream, not the end of one.
			err = io.ErrUnexpectedEOF
		}
		return nil, "", fmt.Errorf("batch header %q: %w", header, err)
	}
	sizeText, pageURL, _ := strings.Cut(strings.TrimRight(header, "\r\n"), " ")
	n, err := strconv.Atoi(sizeText)
	if err != nil || n < 0 || n > maxInput {
		return nil, "", fmt.Errorf("batch header %q: want \"<nbytes> <url>\"", header)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(in, body); err != nil {
		return nil, "", fmt.Errorf("batch body: %w", err)
	}
	return body, pageURL, nil
}

func extractPage(cmd *cobra.Command, ex stages.Extractor, mediaType, pageURL string, body []byte, opts map[string]string) (string, float64, string) {
	start := time.Now()
	res, err := ex.Extract(cmd.Context(), &sdk.ExtractRequest{Body: body, ContentType: mediaType, URL: pageURL, Options: opts})
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return cleanText(err.Error()), ms, "err"
	}
	return cleanResult(res).Content, ms, "ok"
}
