// Command gotrafilatura is go-trafilatura alone (fallback on, as the
// benchmark's field figures were measured), speaking the extraction
// benchmark's batch protocol, so eval.py can measure it beside sift in the
// same run:
//
//	go build -o /tmp/gotrafilatura ./bench/html/gotrafilatura
//	python3 $BENCH_DATA/eval.py --dataset wcxb-dev --batch --cmd /tmp/gotrafilatura
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/markusmobius/go-trafilatura"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	for {
		body, pageURL, err := readPage(in)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gotrafilatura:", err)
			os.Exit(1)
		}
		start := time.Now()
		text, status := extract(body, pageURL)
		ms := float64(time.Since(start).Microseconds()) / 1000
		fmt.Fprintf(out, "%d %.3f %s\n%s", len(text), ms, status, text)
		if err := out.Flush(); err != nil {
			os.Exit(1)
		}
	}
}

func extract(body []byte, pageURL string) (string, string) {
	opts := trafilatura.Options{EnableFallback: true}
	if u, err := url.Parse(pageURL); err == nil && u.IsAbs() {
		opts.OriginalURL = u
	}
	res, err := trafilatura.Extract(bytes.NewReader(body), opts)
	if err != nil {
		return err.Error(), "err"
	}
	return res.ContentText, "ok"
}

// readPage reads "<nbytes> <url>\n" and then exactly nbytes bytes.
func readPage(in *bufio.Reader) ([]byte, string, error) {
	header, err := in.ReadString('\n')
	if err != nil {
		if header == "" && errors.Is(err, io.EOF) {
			return nil, "", io.EOF
		}
		return nil, "", fmt.Errorf("header %q: %w", header, err)
	}
	sizeText, pageURL, _ := strings.Cut(strings.TrimRight(header, "\r\n"), " ")
	n, err := strconv.Atoi(sizeText)
	if err != nil || n < 0 || n > 64<<20 {
		return nil, "", fmt.Errorf("header %q: want \"<nbytes> <url>\"", header)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(in, body); err != nil {
		return nil, "", fmt.Errorf("body: %w", err)
	}
	return body, pageURL, nil
}
