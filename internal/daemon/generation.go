package daemon

import (
	"net/http"
	"sync"

	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/batchtarget"
	"github.com/siftd/sift/server"
)

// generation is one configuration being served: its application, the
// HTTP handler and batch targets over it, and the requests it holds. Once retired it takes no new
// request, and its drained channel closes when the last one ends.
type generation struct {
	app     *app.App
	handler http.Handler
	targets *batchtarget.Runner

	mu       sync.Mutex
	inFlight int
	retired  bool
	drained  chan struct{}
}

func newGeneration(a *app.App, api *server.Server, targets *batchtarget.Runner) *generation {
	return &generation{app: a, handler: api.Handler(), targets: targets, drained: make(chan struct{})}
}

// hold counts one more request in flight, unless g is retired.
func (g *generation) hold() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.retired {
		return false
	}
	g.inFlight++
	return true
}

// held is how many holds are in flight.
func (g *generation) held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.inFlight
}

// release ends a request hold counted.
func (g *generation) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	if g.retired && g.inFlight == 0 {
		close(g.drained)
	}
}

// retire refuses new holds and returns a channel closed once the holds in
// flight have ended.
func (g *generation) retire() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.retired {
		g.retired = true
		if g.inFlight == 0 {
			close(g.drained)
		}
	}
	return g.drained
}
