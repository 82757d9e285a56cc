package pdf

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/siftd/sift/plugins/sdk"
)

// engine is PDFium compiled to WebAssembly, run by wazero inside this
// process: pure Go, no system library, and PDFium's own faults become
// errors of the wasm sandbox instead of crashes. A plugin process handles
// one document at a time, with one instance, or two for a long document
// (see Extract).
type engine struct {
	once sync.Once
	pool pdfium.Pool
	err  error

	first, second lazyInstance
}

type lazyInstance struct {
	once sync.Once
	inst pdfium.Pdfium
	err  error
}

// instance starts PDFium on first use: compiling the module costs about
// 4 s, loading it from the on-disk compilation cache about 0.1 s, so warm
// plugin processes pay it once.
func (e *engine) instance() (pdfium.Pdfium, error) { return e.get(&e.first) }

// helper is a second instance, for sharing a long document's pages with
// the first (see readPages). It starts in the background with the pool,
// so the first long document does not wait for it.
func (e *engine) helper() (pdfium.Pdfium, error) { return e.get(&e.second) }

func (e *engine) get(l *lazyInstance) (pdfium.Pdfium, error) {
	e.once.Do(func() {
		cfg := wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling)
		if cache := compilationCache(); cache != nil {
			cfg = cfg.WithCompilationCache(cache)
		}
		e.pool, e.err = webassembly.Init(webassembly.Config{Context: context.Background(), MinIdle: 1, MaxIdle: 2, MaxTotal: 2, RuntimeConfig: cfg})
		if e.err != nil {
			e.err = fmt.Errorf("start PDFium: %w", e.err)
			return
		}
		go func() { _, _ = e.helper() }()
	})
	if e.err != nil {
		return nil, e.err
	}
	l.once.Do(func() {
		if l.inst, l.err = e.pool.GetInstance(time.Minute); l.err != nil {
			l.err = fmt.Errorf("start PDFium: %w", l.err)
		}
	})
	return l.inst, l.err
}

// compilationCache keeps wazero's compiled PDFium in the plugin's cache
// directory, which sift gives its plugin processes (sdk.CacheDir), or,
// run in process, under the user's cache directory; none when there is no
// writable one.
func compilationCache() wazero.CompilationCache {
	dir, ok := sdk.CacheDir()
	if !ok {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "sift", "plugins", "pdf")
	}
	dir = filepath.Join(dir, "wazero")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}
