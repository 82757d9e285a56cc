// Package pgtest starts a throw-away PostgreSQL server on loopback for
// tests: Debian's postgresql package (`.ci/run` installs it), a new cluster
// in a temporary directory, a free port, trust authentication on loopback
// only. It runs the server as the `postgres` user when the tests run as
// root, since PostgreSQL refuses to run as root.
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// ErrNotInstalled is returned by Start where PostgreSQL's programs are
// missing; DB turns it into testenv.Missing.
var ErrNotInstalled = errors.New("pgtest: PostgreSQL's initdb not found under /usr/lib/postgresql")

// Server is a running PostgreSQL.
type Server struct {
	dir, bin string
	port     int
	asUser   *user.User // nil: run as the current user
}

// Start initialises a cluster under a new temporary directory and starts
// it. Stop removes both.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "sift-pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		if s.asUser, err = user.Lookup("postgres"); err != nil {
			s.cleanup()
			return nil, fmt.Errorf("%w (running as root needs its postgres user): %w", ErrNotInstalled, err)
		}
		if err := chownAll(dir, s.asUser); err != nil {
			s.cleanup()
			return nil, err
		}
	}
	if s.port, err = freePort(); err != nil {
		s.cleanup()
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	if err := s.start(); err != nil {
		s.cleanup()
		return nil, err
	}
	return s, nil
}

// start starts the server on its cluster and port.
func (s *Server) start() error {
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
		s.port, s.dir)
	if out, err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-o", opts, "-l", filepath.Join(s.dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("pgtest: start: %w\n%s\n%s", err, out, log)
	}
	return nil
}

// Down stops the server as a restart does (every connection is closed)
// and keeps its files, for Up to start it again on the same port: a
// database outage, for a test.
func (s *Server) Down(t testing.TB) {
	t.Helper()
	if out, err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "fast", "-w", "stop"); err != nil {
		t.Fatalf("pgtest: stop: %v\n%s", err, out)
	}
}

// Up starts a server Down stopped.
func (s *Server) Up(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
}

// New starts a server for one test and stops it when the test ends. Where
// PostgreSQL is not installed the test skips (see testenv.Missing).
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if errors.Is(err, ErrNotInstalled) {
		testenv.Missing(t, "PostgreSQL's initdb", "apt-get install postgresql")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// DSN returns a connection string for database name on this server.
func (s *Server) DSN(name string) string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=%s sslmode=disable", s.port, name)
}

// CreateDB creates a fresh database and returns its DSN.
func (s *Server) CreateDB(name string) (string, error) {
	if out, err := s.run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(s.port), "-U", "postgres", name); err != nil {
		return "", fmt.Errorf("pgtest: createdb %s: %w\n%s", name, err, out)
	}
	return s.DSN(name), nil
}

// Stop stops the server and removes its files.
func (s *Server) Stop() {
	_, _ = s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	s.cleanup()
}

func (s *Server) cleanup() { _ = os.RemoveAll(s.dir) }

func (s *Server) run(tool string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, tool), args...)
	cmd.Dir = s.dir
	if s.asUser != nil {
		uid, _ := strconv.Atoi(s.asUser.Uid)
		gid, _ := strconv.Atoi(s.asUser.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), err
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		return out.Bytes(), errors.New("timed out")
	}
}

// binDir finds the newest installed PostgreSQL's programs.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func chownAll(dir string, u *user.User) error {
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chown(p, uid, gid)
	})
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// shared is the server of a test package run under Main.
var shared struct {
	srv *Server
	err error
	seq atomic.Int32
}

// Main starts one server for a test package, runs its tests and stops the
// server: call it from TestMain as os.Exit(pgtest.Main(m)). A server that
// cannot start fails the tests that ask DB for a database, not the others;
// where PostgreSQL is not installed they skip (see testenv.Missing).
func Main(m *testing.M) int {
	shared.srv, shared.err = Start()
	code := m.Run()
	if shared.srv != nil {
		shared.srv.Stop()
	}
	return code
}

// DB creates a fresh database on the package's server and returns its DSN.
func DB(t testing.TB) string {
	t.Helper()
	if errors.Is(shared.err, ErrNotInstalled) {
		testenv.Missing(t, "PostgreSQL's initdb", "apt-get install postgresql")
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	if shared.srv == nil {
		t.Fatal("pgtest: DB needs TestMain to call pgtest.Main")
	}
	dsn, err := shared.srv.CreateDB(fmt.Sprintf("sift_test_%d", shared.seq.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
