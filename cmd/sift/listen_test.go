package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// TestServeListenOverride: --listen and SIFT_LISTEN move the embedded
// default to another port (the flag over the variable); a malformed one is
// refused naming where it came from, and the development key still keeps
// sift on loopback.
func TestServeListenOverride(t *testing.T) {
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
			cmd := exec.Command(siftBin, "serve")
			cmd.Dir = t.TempDir() // no ./config.hcl: the embedded default, listening on 8890
			cmd.Env = append(os.Environ(), listenEnv+"="+addr)
			if how == "flag" {
				cmd.Env = append(os.Environ(), listenEnv+"=127.0.0.1:1") // the flag wins
				cmd.Args = append(cmd.Args, "--listen", addr)
			}
			logs := &syncBuffer{}
			cmd.Stderr = logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			testwait.For(t, "sift on "+addr, func() bool {
				resp, err := http.Get("http://" + addr + "/healthz")
				if err != nil {
					return false
				}
				resp.Body.Close()
				return resp.StatusCode == http.StatusOK
			})
			if !strings.Contains(logs.String(), `"addr":"`+addr+`"`) {
				t.Errorf("the listening line does not name %s:\n%s", addr, logs.String())
			}
		})
	}
	for _, tc := range []struct{ listen, want string }{
		{"8891", `--listen "8891": address 8891: missing port in address`},
		{"0.0.0.0:8891", "holds the development key"},
	} {
		cmd := exec.Command(siftBin, "serve", "--listen", tc.listen)
		cmd.Dir = t.TempDir()
		_, stderr, code := runCmd(t, cmd)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("--listen %s: exit %d, stderr %q, want %q", tc.listen, code, stderr, tc.want)
		}
	}
}
