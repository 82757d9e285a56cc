package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
)

// reloadStatusFile is where sift serve records, under data_dir, how its
// last configuration load ended, for `sift reload` to read.
const reloadStatusFile = "reload.status"

// reloadStatus is one configuration load of a running sift serve: the
// start (Seq 0) or a reload.
type reloadStatus struct {
	PID int       `json:"pid"`
	Seq int       `json:"seq"`
	OK  bool      `json:"ok"`
	At  time.Time `json:"at"`
	// Diagnostics are the refused file's problems as validate prints them.
	Diagnostics string `json:"diagnostics,omitempty"`
}

// writeReloadStatus replaces the status file under dataDir, whole: a
// reader sees the old one or the new one.
func writeReloadStatus(dataDir string, st reloadStatus) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dataDir, reloadStatusFile+".*")
	if err != nil {
		return fmt.Errorf("reload status: %w", err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dataDir, reloadStatusFile))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("reload status: %w", err)
	}
	return nil
}

func readReloadStatus(dataDir string) (reloadStatus, error) {
	var st reloadStatus
	b, err := os.ReadFile(filepath.Join(dataDir, reloadStatusFile))
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("%s: %w", filepath.Join(dataDir, reloadStatusFile), err)
	}
	return st, nil
}

// statusRoom is the room a reload's record may need in data_dir: its
// diagnostics are a refused file's problems, a few KiB at most.
const statusRoom = 64 << 10

// roomForStatus checks that dataDir has room for a reload's record by
// writing one of statusRoom bytes and removing it: in a full data_dir sift
// serve cannot record the reload, and sift reload would wait in vain.
func roomForStatus(dataDir string) error {
	f, err := os.CreateTemp(dataDir, reloadStatusFile+".room.*")
	if err != nil {
		return fmt.Errorf("data_dir %s: %w", dataDir, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, statusRoom))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("data_dir %s: %w", dataDir, err)
	}
	return nil
}

// reloadWait is how long `sift reload` waits for sift serve to say how
// the reload ended: a reload starts the plugins whose blocks changed.
const reloadWait = 2 * time.Minute

func reloadCommand() *cobra.Command {
	var cfgPath string
	var pid int
	cmd := &cobra.Command{
		Use:   "reload --pid PID",
		Short: "Check the configuration, have the sift serve of PID reload it, and fail if it refused",
		Long: "Check the configuration file as `sift validate` does (exit 1 with its problems, nothing\n" +
			"sent), then send SIGHUP to the sift serve of PID and wait until it says how the reload\n" +
			"ended: exit 0 when it took the file, 1 with its diagnostics when it kept the running\n" +
			"configuration. sift serve records each load in data_dir/" + reloadStatusFile + ".\n" +
			"The units sift ships run it as ExecReload, so `systemctl reload sift` fails when sift\n" +
			"refuses the file.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pid <= 0 {
				return errors.New("reload needs --pid, the process id of sift serve (systemd: $MAINPID)")
			}
			cfg, diags := config.LoadFile(cfgPath)
			if cfg != nil {
				diags = append(diags, app.Check(cmd.Context(), cfg)...)
			}
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "reload not sent: sift would refuse %s\n", cfgPath)
				return err
			}
			before, err := readReloadStatus(cfg.DataDir)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return fmt.Errorf("reload not sent: %s holds no %s: is sift serve (pid %d) running with data_dir %q?", cfg.DataDir, reloadStatusFile, pid, cfg.DataDir)
			case err != nil:
				return fmt.Errorf("reload not sent: %w", err)
			case before.PID != pid:
				return fmt.Errorf("reload not sent: the sift serve with data_dir %q is pid %d, not %d", cfg.DataDir, before.PID, pid)
			}
			if err := roomForStatus(cfg.DataDir); err != nil {
				return fmt.Errorf("reload not sent: sift serve could not record how the reload ended, so sift reload could not tell: %w", err)
			}
			if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
				return fmt.Errorf("reload: signal pid %d: %w", pid, err)
			}
			deadline := time.Now().Add(reloadWait)
			for time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
				if err := syscall.Kill(pid, 0); err != nil {
					return fmt.Errorf("reload: sift serve (pid %d) exited", pid)
				}
				after, err := readReloadStatus(cfg.DataDir)
				if errors.Is(err, fs.ErrNotExist) {
					// sift serve removes the record it could not replace.
					return fmt.Errorf("reload: sift serve (pid %d) could not record how the reload ended in %s: its log says why, and whether it took the file", pid, cfg.DataDir)
				}
				if err != nil || after.PID != pid || after.Seq <= before.Seq {
					continue
				}
				if !after.OK {
					fmt.Fprint(cmd.ErrOrStderr(), after.Diagnostics)
					fmt.Fprintf(cmd.ErrOrStderr(), "reload refused: sift (pid %d) kept the running configuration\n", pid)
					return exitError{}
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: reloaded by sift (pid %d)\n", cfgPath, pid)
				return nil
			}
			return fmt.Errorf("reload: sift serve (pid %d) did not say how the reload ended within %s", pid, reloadWait)
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, "configuration file sift serve reads")
	cmd.Flags().IntVar(&pid, "pid", 0, "process id of sift serve")
	return cmd
}
