package ocr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// slots bound the tesseract processes running on the machine to one per
// core, across every sift plugin process (the pdf and ocr pools, each of
// several processes): each slot is a lock file under the temporary
// directory, locked (flock) while a page is read, and the kernel drops a
// dead process's lock. Pages of one document are read in parallel in as
// many slots as are free.
type slots struct {
	dir   string
	local chan struct{}
}

func newSlots() *slots {
	return &slots{dir: filepath.Join(os.TempDir(), "sift-ocr-"+strconv.Itoa(os.Getuid())), local: make(chan struct{}, runtime.NumCPU())}
}

// slotPoll is how often a process whose slots are all taken by other
// processes looks again; a page's OCR takes seconds.
const slotPoll = 20 * time.Millisecond

// acquire takes a slot, waiting for one as long as ctx allows.
func (s *slots) acquire(ctx context.Context) (func(), error) {
	select {
	case s.local <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for an OCR slot: %w", ctx.Err())
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		// Without the directory only this process's bound holds.
		return func() { <-s.local }, nil
	}
	tick := time.NewTicker(slotPoll)
	defer tick.Stop()
	for {
		for i := range cap(s.local) {
			if f, ok := tryLock(filepath.Join(s.dir, "slot-"+strconv.Itoa(i))); ok {
				return func() { f.Close(); <-s.local }, nil
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			<-s.local
			return nil, fmt.Errorf("wait for an OCR slot: %w", ctx.Err())
		}
	}
}
