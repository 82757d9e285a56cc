package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/store"
)

// TestCacheClear: `sift cache clear --stage N` deletes the snapshots of
// the pipeline's Nth stage and no other's, refuses a stage that is not a
// cache, and without --stage clears everything; on SQLite and PostgreSQL.
func TestCacheClear(t *testing.T) {
	for _, driver := range []string{"sqlite", "postgres"} {
		t.Run(driver, func(t *testing.T) {
			dir := t.TempDir()
			storeBlock, dsn := "", ""
			if driver == "postgres" {
				var err error
				if dsn, err = pgtest.New(t).CreateDB("sift"); err != nil {
					t.Fatal(err)
				}
				storeBlock = "store {\n  driver  = \"postgres\"\n  dsn_env = \"SIFT_DSN\"\n}"
			}
			cfg := filepath.Join(dir, "config.hcl")
			src := fmt.Sprintf(`data_dir = %q
%s
pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "cache" {}
  stage "extract" {}
  stage "cache" {}
}
`, dir, storeBlock)
			if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			st, err := store.Open(ctx, config.Store{Driver: driver, DSN: dsn}, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			table := st.CacheTable(1 << 20)
			for i := range 2 {
				for _, index := range []int{2, 4} { // the 3rd and 5th stages
					if err := table.At(index).Put(ctx, fmt.Sprintf("k%d-%d", index, i), []byte("snap"), time.Now().Add(time.Hour), false); err != nil {
						t.Fatal(err)
					}
				}
			}
			clear := func(args ...string) (string, string, int) {
				cmd := exec.Command(siftBin, append([]string{"cache", "clear", "--config", cfg}, args...)...)
				cmd.Env = append(os.Environ(), "SIFT_DSN="+dsn)
				return runCmd(t, cmd)
			}
			if out, errOut, code := clear("--stage", "4"); code == 0 || !strings.Contains(errOut, "stage 4 of the pipeline is not a cache stage; the cache stages are 3 and 5") {
				t.Fatalf("--stage 4 (extract): code %d, %q %q", code, out, errOut)
			}
			if out, errOut, code := clear("--stage", "5"); code != 0 || out != "cleared the cache of stage 5: 2 entries\n" {
				t.Fatalf("--stage 5: code %d, %q %q", code, out, errOut)
			}
			if stats, err := st.CacheStageStats(ctx); err != nil || len(stats) != 2 || stats[0].Entries != 2 || stats[1].Entries != 0 {
				t.Fatalf("after clearing stage 5: %+v %v", stats, err)
			}
			if out, errOut, code := clear(); code != 0 || out != "cleared the cache: 2 entries\n" {
				t.Fatalf("clear all: code %d, %q %q", code, out, errOut)
			}
			if b, e, err := st.CacheStats(ctx); err != nil || b != 0 || e != 0 {
				t.Fatalf("after clearing all: %d bytes, %d entries, %v", b, e, err)
			}
		})
	}
}
