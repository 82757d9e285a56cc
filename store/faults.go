package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
)

// Fault is why the store cannot do its work: what a failed read or write
// says of the database, or what sift's own floor on data_dir refused.
// The cache is disposable, so a fault costs its reads and writes and never
// an answer (ARCHITECTURE.md, "The store").
type Fault string

// The faults, in the words /healthz, the metrics and the answers' warnings
// use.
const (
	// FaultDiskFull: the disk holding the database has no room left.
	FaultDiskFull Fault = "disk_full"
	// FaultReadOnly: the database or its file system refuses writes.
	FaultReadOnly Fault = "read_only"
	// FaultUnreachable: the database does not answer (PostgreSQL down,
	// restarting, or the connection lost).
	FaultUnreachable Fault = "unreachable"
	// FaultMinFree: data_dir's disk is below the cache's min_free, so the
	// cache stores nothing until room comes back.
	FaultMinFree Fault = "min_free"
	// FaultOther: any other failure of the database.
	FaultOther Fault = "other"
)

// Faults lists every fault, for series that exist before the first one.
func Faults() []Fault {
	return []Fault{FaultDiskFull, FaultReadOnly, FaultUnreachable, FaultMinFree, FaultOther}
}

// Words is the fault as a person reads it.
func (f Fault) Words() string {
	switch f {
	case FaultDiskFull:
		return "disk full"
	case FaultReadOnly:
		return "read-only"
	case FaultUnreachable:
		return "unreachable"
	case FaultMinFree:
		return "below min_free"
	}
	return "failing"
}

// FaultError is a read or write of the store that failed with a fault.
// Its text is the fault's, never the driver's (which may name the
// database's address and user); Unwrap gives the driver's error to the
// operator's log.
type FaultError struct {
	Fault Fault
	Err   error
}

func (e *FaultError) Error() string {
	if e.Fault == FaultMinFree {
		return "data_dir below min_free"
	}
	return "storage unavailable (" + e.Fault.Words() + ")"
}

// Unwrap returns the driver's error.
func (e *FaultError) Unwrap() error { return e.Err }

// StoreFault names the fault, for callers that know the store only as an
// interface (stages.StoreFault).
func (e *FaultError) StoreFault() string { return string(e.Fault) }

// faultOf classifies a failed read or write; "" when err is no fault of
// the store's (nil, or the request's context ended).
func (s *Store) faultOf(err error) Fault {
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ""
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EFBIG):
		return FaultDiskFull
	case errors.Is(err, syscall.EROFS):
		return FaultReadOnly
	}
	if f := sqlStateFault(err); f != "" {
		return f
	}
	if f := s.sqliteFault(err); f != "" {
		return f
	}
	if connectionLost(err) || s.shared {
		// On PostgreSQL every failure that is not an answer of the server
		// (it has an SQLSTATE) is the way to it failing.
		return FaultUnreachable
	}
	return FaultOther
}

// sqlStateFault reads PostgreSQL's SQLSTATE, where the error has one.
func sqlStateFault(err error) Fault {
	var pg interface{ SQLState() string }
	if !errors.As(err, &pg) {
		return ""
	}
	switch code := pg.SQLState(); {
	case code == "53100": // disk_full
		return FaultDiskFull
	case code == "25006": // read_only_sql_transaction: a standby, or read-only by setting
		return FaultReadOnly
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "57P"): // connection exception; shutting down, starting up
		return FaultUnreachable
	}
	return FaultOther
}

// SQLite's primary result codes this file reads.
const (
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// sqliteFault reads SQLite's result code, where the error has one. An I/O
// error does not say which: data_dir is tried with a small write of its
// own, which names ENOSPC or EROFS when that was it.
func (s *Store) sqliteFault(err error) Fault {
	var lite interface{ Code() int }
	if !errors.As(err, &lite) {
		return ""
	}
	switch lite.Code() & 0xff {
	case sqliteFull:
		return FaultDiskFull
	case sqliteReadOnly:
		return FaultReadOnly
	case sqliteIOErr, sqliteCantOpen:
		if f := probeDir(s.dir); f != "" {
			return f
		}
	}
	return FaultOther
}

// connectionLost reports an error of the connection rather than of a
// statement.
func connectionLost(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// probeDir writes a small file in dir and removes it, and names the fault
// the file system answered with: disk_full for ENOSPC (or a quota, or a
// file-size limit), read_only for EROFS; "" when the write worked or dir
// is not a local data_dir.
func probeDir(dir string) Fault {
	if dir == "" {
		return ""
	}
	f, err := os.CreateTemp(dir, ".sift-probe-*")
	if err == nil {
		_, err = f.Write(make([]byte, 4096))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		_ = os.Remove(f.Name())
	}
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.EROFS):
		return FaultReadOnly
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EFBIG):
		return FaultDiskFull
	}
	return ""
}
