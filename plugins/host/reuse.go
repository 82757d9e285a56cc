package host

import (
	"fmt"
	"slices"
)

// poolKey is what a pool's processes depend on: the spec's fields that
// reach a process and the configuration sent to it. Two specs with one key
// run the same processes, so a reload may keep the pool.
func poolKey(s *Spec, self string, cfg []byte) string {
	return fmt.Sprintf("%q|%q|%q|%d|%d|%s|%d|%q|%q|%d|%t|%t|%q|%q",
		s.Name, s.Command, s.SHA256, s.Pool, s.PerCaller, s.Timeout, s.Memory, s.Isolation,
		s.Env, s.MaxMessage, s.Digester, s.Companion, self, cfg)
}

// reusable returns a pool of previous whose key is key, shared with the
// new host, or nil.
func reusable(previous *Host, key string) *Pool {
	if previous == nil {
		return nil
	}
	i := slices.IndexFunc(previous.pools, func(p *Pool) bool { return p.key == key })
	if i < 0 || !previous.pools[i].retain() {
		return nil
	}
	return previous.pools[i]
}

// retain counts one more host using the pool, unless it is closed.
func (p *Pool) retain() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hosts == 0 {
		return false
	}
	p.hosts++
	return true
}

// release ends one host's use of the pool, and closes it after the last.
func (p *Pool) release() {
	p.mu.Lock()
	p.hosts--
	last := p.hosts == 0
	p.mu.Unlock()
	if last {
		p.Close()
	}
}
