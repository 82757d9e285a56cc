package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// The test binary doubles as a plugin: started by go-plugin (which sets
// the handshake's cookie) or with envTestPlugin set, TestMain serves
// faultyExtractor instead of running tests. The cookie matters because a
// plugin inherits no variable the spec does not list. This is the real
// subprocess path: go-plugin handshake, gRPC, process kill and respawn.
const envTestPlugin = "SIFT_HOST_TEST_PLUGIN"

// allocCeiling is where the "alloc" mode stops growing: four times the
// memory limit the tests set.
const allocCeiling = 4 * testMemory

func TestMain(m *testing.M) {
	if os.Getenv(envTestPlugin) == "1" || os.Getenv(sdk.Handshake.MagicCookieKey) == sdk.Handshake.MagicCookieValue {
		reportUnpinned()
		sdk.Serve(sdk.ServeConfig{Extractor: faultyExtractor{}})
		return
	}
	os.Exit(m.Run())
}

// envUnpinnedMarker names the file a plugin process appends a line to when
// its own binary ends with unpinnedTrailer, before it exits: the swap test
// counts the runs of its unpinned binary this way.
const envUnpinnedMarker = "SIFT_HOST_TEST_UNPINNED_MARKER"

const unpinnedTrailer = "\nnot the pinned plugin\n"

func reportUnpinned() {
	marker := os.Getenv(envUnpinnedMarker)
	if marker == "" {
		return
	}
	exe, err := os.Open("/proc/self/exe")
	if err != nil {
		return
	}
	defer exe.Close()
	tail := make([]byte, len(unpinnedTrailer))
	fi, err := exe.Stat()
	if err != nil || fi.Size() < int64(len(tail)) {
		return
	}
	if _, err := exe.ReadAt(tail, fi.Size()-int64(len(tail))); err != nil || string(tail) != unpinnedTrailer {
		return
	}
	if f, err := os.OpenFile(marker, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		_, _ = f.WriteString("ran\n")
		f.Close()
	}
	os.Exit(1)
}

// faultyExtractor misbehaves on request: the "mode" option picks how.
type faultyExtractor struct{}

// envTestCostly makes faultyExtractor announce the costly capability.
const envTestCostly = "SIFT_HOST_TEST_COSTLY"

// envTestSniff makes faultyExtractor announce a sniff rule claiming RSS
// served as XML, with the variable's value as its pattern.
const envTestSniff = "SIFT_HOST_TEST_SNIFF"

// envTestContainer makes faultyExtractor announce a container rule for
// zips holding the variable's value as an entry, recognised as
// application/x-test-zip.
const envTestContainer = "SIFT_HOST_TEST_CONTAINER"

func (faultyExtractor) Info(context.Context) (sdk.Info, error) {
	info := sdk.Info{Name: "faulty", Version: "0.0.1", ContentTypes: []string{"text/x-test"}}
	if os.Getenv(envTestCostly) == "1" {
		info.Capabilities = []string{sdk.CapabilityCostly}
	}
	if p, ok := os.LookupEnv(envTestSniff); ok {
		info.Sniff = []sdk.SniffRule{{ContentTypes: []string{"text/xml", "application/xml"}, RootElements: []string{"rss"}, Pattern: p}}
	}
	if entry, ok := os.LookupEnv(envTestContainer); ok {
		info.Containers = []sdk.ContainerRule{{MediaType: "application/x-test-zip", Extensions: []string{"tzip"}, ZipEntries: []string{entry}}}
	}
	return info, nil
}

func (faultyExtractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{{Name: "greeting", Type: sdk.TypeString}}}, nil
}

func (faultyExtractor) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var cfg struct{ Greeting string }
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, err
	}
	if cfg.Greeting == "rude" {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "greeting must be polite", Attribute: "greeting"}}, nil
	}
	return nil, nil
}

func (faultyExtractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	switch req.Options["mode"] {
	case "panic":
		panic("extractor exploded")
	case "exit":
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	case "oversize":
		return &sdk.ExtractResult{Content: strings.Repeat("x", 4<<20)}, nil
	case "alloc":
		// Grows until the memory limit kills it. Writing one byte a page
		// makes every page resident, as a parser filling its buffers does,
		// without spending seconds writing the rest. Past allocCeiling the
		// limit has failed: it stops growing, so the test fails on its
		// timeout instead of taking the machine's memory.
		var hoard [][]byte
		page := os.Getpagesize()
		for size := 0; size < allocCeiling; size += 16 << 20 {
			b := make([]byte, 16<<20)
			for i := 0; i < len(b); i += page {
				b[i] = 1
			}
			hoard = append(hoard, b)
		}
		<-ctx.Done()
		return &sdk.ExtractResult{Content: fmt.Sprintf("held %d chunks", len(hoard))}, ctx.Err()
	case "oom":
		// Dies as the Go runtime does when the memory limit refuses an
		// allocation ("alloc" may die by another fault first).
		fmt.Fprint(os.NewFile(2, "stderr"), "fatal error: runtime: out of memory\n\nruntime stack:\nruntime.throw({0x1, 0x2})\n")
		os.Exit(2)
	case "invalid":
		return nil, sdk.Invalid("not a test document")
	case "stderr":
		// Straight to the process's stderr, which go-plugin reads line by
		// line into the host's log (os.Stderr is redirected by Serve).
		fd2 := os.NewFile(2, "stderr")
		fmt.Fprint(fd2, forgedLines)
		return &sdk.ExtractResult{Content: "wrote to stderr", Format: sdk.FormatText}, nil
	case "env":
		return &sdk.ExtractResult{Content: strings.Join(os.Environ(), "\x00"), Format: sdk.FormatText}, nil
	case "links":
		return &sdk.ExtractResult{Content: "linked", Format: sdk.FormatText,
			Links: []string{"https://example.com/a", "https://example.com/b"}}, nil
	case "type":
		return &sdk.ExtractResult{Content: "type: " + req.ContentType, Format: sdk.FormatText}, nil
	case "procs":
		return &sdk.ExtractResult{Content: strconv.Itoa(runtime.GOMAXPROCS(0)), Format: sdk.FormatText}, nil
	case "gate":
		// Runs until the test creates the file named by the "gate" option,
		// so the test, not the clock, decides how long the call lasts.
		// A distinct answer per extraction: equal answers were shared.
		if err := waitForFile(ctx, req.Options["gate"]); err != nil {
			return nil, err
		}
		return &sdk.ExtractResult{Content: fmt.Sprintf("gate %d %d", os.Getpid(), time.Now().UnixNano()), Format: sdk.FormatText}, nil
	}
	return &sdk.ExtractResult{Content: "echo: " + string(req.Body), Format: sdk.FormatText}, nil
}

// waitForFile returns once path exists, or with ctx's error.
func waitForFile(ctx context.Context, path string) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
