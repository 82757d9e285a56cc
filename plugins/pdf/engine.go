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
)

// engine is PDFium compiled to WebAssembly, run by wazero inside this
// process: pure Go, no system library, and PDFium's own faults become
// errors of the wasm sandbox instead of crashes. One instance serves the
// process (a plugin process handles one document at a time).
type engine struct {
	once sync.Once
	pool pdfium.Pool
	inst pdfium.Pdfium
	err  error
}

// instance starts PDFium on first use: compiling the module costs about
// 4 s, loading it from the on-disk compilation cache about 0.1 s, so warm
// plugin processes pay it once.
func (e *engine) instance() (pdfium.Pdfium, error) {
	e.once.Do(func() {
		cfg := wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling)
		if cache := compilationCache(); cache != nil {
			cfg = cfg.WithCompilationCache(cache)
		}
		e.pool, e.err = webassembly.Init(webassembly.Config{Context: context.Background(), MinIdle: 1, MaxIdle: 1, MaxTotal: 1, RuntimeConfig: cfg})
		if e.err != nil {
			e.err = fmt.Errorf("start PDFium: %w", e.err)
			return
		}
		if e.inst, e.err = e.pool.GetInstance(time.Minute); e.err != nil {
			e.err = fmt.Errorf("start PDFium: %w", e.err)
		}
	})
	return e.inst, e.err
}

// compilationCache keeps wazero's compiled PDFium under the user's cache
// directory; none when there is no writable one.
func compilationCache() wazero.CompilationCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	dir = filepath.Join(dir, "sift", "wazero")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}
