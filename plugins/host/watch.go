package host

import "time"

// WatchInterval is how often a pool looks for processes that died while
// idle (killed by the OOM killer or an operator), so /healthz and the
// restart counter tell the truth before the next request finds out.
const WatchInterval = 2 * time.Second

// watch sweeps the idle processes every interval until the pool closes.
func (p *Pool) watch(every time.Duration) {
	defer p.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.sweep()
		}
	}
}

// sweep replaces each idle process that exited. A process it looks at is
// out of the idle queue for a moment; a call waiting then takes the next.
func (p *Pool) sweep() {
	for range len(p.idle) {
		select {
		case pr := <-p.idle:
			if pr.exited() {
				p.replace(pr, "exited")
			} else {
				p.idle <- pr
			}
		default:
			return
		}
	}
}
