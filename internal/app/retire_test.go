package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/store"
)

// lockedBuffer is a log a test reads while the app writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestStartRetiresAnOlderBuildsCache: a data_dir whose cache an older
// build (or another configuration) stored says at start how many entries
// will not be read, takes them out of the totals max_bytes is held to,
// and deletes their snapshots in the background; what this chain stores
// stays.
func TestStartRetiresAnOlderBuildsCache(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, tag := range []string{"", "v1:3:guard,fetch,extract:abc", ""} {
		if _, err := st.CachePut(ctx, "old"+string(rune('a'+i)), tag, 3, false, make([]byte, 1000), now, now.Add(time.Hour), now.Add(time.Hour), 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	src := `data_dir = "` + dir + `"
caller "a" {
  key_sha256 = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
}
pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}
extractor "text" {
  isolation = "none"
}
`
	cfg, diags := config.Parse([]byte(src), "config.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var logs lockedBuffer
	a, diags := Load(ctx, cfg, Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Only: []string{"text"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer a.Close(ctx)
	if !strings.Contains(logs.String(), `"msg":"cache entries of an older build or another configuration will not be read`) ||
		!strings.Contains(logs.String(), `"entries":3,"bytes":3000`) {
		t.Errorf("start logged:\n%s", logs.String())
	}
	if bytes, entries, _ := a.Store.CacheStats(ctx); bytes != 0 || entries != 0 {
		t.Errorf("the older build's entries still count: %d bytes in %d entries", bytes, entries)
	}
	testwait.For(t, "the older build's snapshots to be deleted", func() bool {
		return strings.Contains(logs.String(), `"msg":"cache purge of an older build's snapshots done","snapshots":3`)
	})
}
