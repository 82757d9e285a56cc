# sift — build, run, test, bench and regenerate protobuf code.
GO        ?= go
BIN       := bin/sift
TOOLS     := $(CURDIR)/.tools
PROTO_DIR := plugins/sdk/proto
PB_OUT    := plugins/sdk/internal/pluginv1
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.0
STATICCHECK_VERSION        := v0.8.2
# Packages whose code runs concurrently get the race detector. Not cmd/sift:
# its tests run sift as a subprocess built without -race, so a race pass of
# them would instrument only the test harness and double the longest
# package's time; the daemon, server and batch code they drive is raced in
# its own packages.
RACE_PKGS := ./plugins/... ./stages/... ./internal/... ./server/... ./firecrawl/... ./store/... ./search/... ./health/... ./honcho/... ./batch/...
# The extraction benchmark's folder (eval.py and its pages), which the
# repository does not ship: make bench BENCH_DATA=DIR uses it, and without
# it skips the steps that need it.
BENCH_DATA ?=
BENCH_ABS  := $(if $(BENCH_DATA),$(abspath $(BENCH_DATA)))
# Where make bench's ablation of the HTML extractor's rules writes each
# rule-off variant's outputs (bench/html/ablation.py reads them).
ABLATION_OUT ?= $(CURDIR)/bin/ablation
# The PDF corpus (a folder with pdf/), also not shipped: make bench
# PDF_BENCH=DIR reads it with sift's pdf extractor, in process and through
# /v1/fetch, and with pdftotext.
PDF_BENCH ?=
PDF_ABS   := $(if $(PDF_BENCH),$(abspath $(PDF_BENCH)))
# An OpenAI-compatible embeddings endpoint (…/v1) for the retrieval measurement; empty: BM25 alone.
EMBED_URL ?=

.PHONY: build run test lint e2e bench fuzz proto tools clean nix-check testdata-docs

# sift and sift-html, its HTML extractor, which it finds beside itself.
build:
	$(GO) build -o bin/ ./cmd/sift ./cmd/sift-html

# config.hcl is read from disk; the binary embeds the same file as the
# default for a command given no --config.
run: build
	./$(BIN) serve --config config.hcl

# A hung test fails its package with a goroutine dump instead of stalling CI.
TEST_TIMEOUT ?= 30m

# Every step runs even when an earlier one failed, so one failure does not
# hide another; the end names the failed steps and their failing tests, and
# the target fails if any step did.
test:
	@log=$$(mktemp); trap 'rm -f "$$log" "$$log.rc" "$$log.skips"' EXIT; failed=; \
	export SIFT_TEST_SKIPS="$$log.skips"; \
	step() { \
	  name=$$1; shift; echo "== $$name: $$*"; \
	  { "$$@" 2>&1; echo $$? >"$$log.rc"; } | tee -a "$$log"; \
	  [ "$$(cat "$$log.rc")" = 0 ] || failed="$$failed $$name"; \
	}; \
	step build $(GO) build -o bin/ ./cmd/sift ./cmd/sift-html; \
	step vet $(GO) vet ./...; \
	step tests $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...; \
	step race $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -race $(RACE_PKGS); \
	step sdk-vet $(GO) -C plugins/sdk vet ./...; \
	step sdk $(GO) -C plugins/sdk test -count=1 -timeout $(TEST_TIMEOUT) -race ./...; \
	step example $(GO) -C examples/extractor test -count=1 -timeout $(TEST_TIMEOUT) ./...; \
	if [ -s "$$log.skips" ]; then \
	  echo "== skipped, for what the machine lacks (one line each):"; sort -u "$$log.skips"; \
	fi; \
	if [ -n "$$failed" ]; then \
	  echo "== make test: failed:$$failed"; \
	  grep -E '^(--- FAIL|FAIL|panic:)' "$$log"; \
	  exit 1; \
	fi; \
	echo "== make test: every step passed"

# gofmt, go vet and staticcheck over the three modules; any finding fails.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) -C plugins/sdk vet ./...
	$(GO) -C examples/extractor vet ./...
	GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(TOOLS)/staticcheck ./...
	cd plugins/sdk && $(TOOLS)/staticcheck ./...
	cd examples/extractor && $(TOOLS)/staticcheck ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 20x ./plugins/host/
	PDF_BENCH=$(PDF_ABS) $(GO) test -run '^$$' -bench CorpusPages -benchtime 1x ./plugins/pdf/
	PDF_BENCH=$(PDF_ABS) $(GO) test -run '^$$' -bench OCR -benchtime 1x -timeout 60m ./plugins/pdf/
	$(GO) test -run '^$$' -bench 'Restore|SnapshotPages' -benchtime 50x ./stages/cache/
	SIFT_BENCH_DATA=$(BENCH_ABS) $(GO) test -run '^$$' -bench . -skip 'PageRatio|ImagesTokens|LargePage' -benchtime 181x ./plugins/html/
	$(GO) test -run '^$$' -bench LargePage -benchtime 1x -benchmem -timeout 30m ./plugins/html/
	SIFT_BENCH_DATA=$(BENCH_ABS) $(GO) test -run '^$$' -bench 'PageRatio|ImagesTokens' -benchtime 1x -timeout 30m ./plugins/html/
	$(GO) test -run '^$$' -bench CacheMiss -benchtime 300x ./store/
	$(GO) test -run '^$$' -bench 'CacheHit|CleanFetchOverhead|BatchOverhead' -benchtime 2s ./server/
	$(GO) test -run '^$$' -bench Revalidation -benchtime 200x ./server/
	$(GO) test -run '^$$' -bench '^BenchmarkThroughput$$' -benchtime 1x ./cmd/sift/
	PDF_BENCH=$(PDF_ABS) $(GO) test -run '^$$' -bench PDFFetch -benchtime 1x -timeout 60m ./cmd/sift/
	$(GO) test -run '^$$' -bench BatchThroughput -benchtime 1x ./cmd/sift/
	$(GO) test -run '^$$' -bench Pandoc -benchtime 1x -timeout 60m ./plugins/office/
	FOCUS_BENCH_DATA=$(if $(BENCH_ABS),$(BENCH_ABS)/data) FOCUS_EMBED_URL=$(EMBED_URL) \
	  $(GO) test -count=1 -timeout 60m -v -run '^TestRetrievalBench$$' ./focus/
	@if [ -n "$(BENCH_ABS)" ] && [ -d "$(BENCH_ABS)" ] && command -v python3 >/dev/null; then \
	  python3 $(BENCH_ABS)/eval.py --dataset scrapinghub --batch --quiet --cmd '$(BIN) extract --batch'; \
	  python3 $(BENCH_ABS)/eval.py --dataset wcxb-dev --batch --quiet --cmd '$(BIN) extract --batch'; \
	  python3 $(BENCH_ABS)/eval.py --dataset readability --batch --quiet --cmd '$(BIN) extract --batch'; \
	  SIFT_BENCH_DATA=$(BENCH_ABS) SIFT_ABLATION_OUT=$(ABLATION_OUT) \
	    $(GO) test -count=1 -run '^TestAblation$$' -timeout 3h ./plugins/html/ && \
	  python3 bench/html/ablation.py --bench $(BENCH_ABS) --out $(ABLATION_OUT); \
	fi

# The flake, the NixOS module and deploy/sift.service, offline (nix-bin and
# systemd-analyze): .nix files parse, services.sift evaluates to HCL that
# sift validate accepts, refusals, the units' security score, vendorHash.
nix-check: build
	SIFT_NIX_CHECK=1 $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -v ./nix/

# The black-box SSRF suite: as root, in a throw-away network namespace.
e2e:
	bash e2e/ssrf/run.sh

# Each fuzz target for FUZZTIME; the seeds also run in make test.
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzPreCheck$$' -fuzztime $(FUZZTIME) ./guard/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./guard/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./config/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/json/
	$(GO) test -run '^$$' -fuzz '^FuzzRestore$$' -fuzztime $(FUZZTIME) ./stages/cache/
	$(GO) test -run '^$$' -fuzz '^FuzzBoundedJQ$$' -fuzztime $(FUZZTIME) ./plugins/json/
	$(GO) test -run '^$$' -fuzz '^FuzzCompileGrep$$' -fuzztime $(FUZZTIME) ./server/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeBody$$' -fuzztime $(FUZZTIME) ./server/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/html/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/pdf/
	$(GO) test -run '^$$' -fuzz '^FuzzImageHeader$$' -fuzztime $(FUZZTIME) ./plugins/ocr/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./plugins/internal/charset/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/csv/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/feed/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/notebook/
	$(GO) test -run '^$$' -fuzz '^FuzzStrip$$' -fuzztime $(FUZZTIME) ./internal/invisible/
	$(GO) test -run '^$$' -fuzz '^FuzzEscape$$' -fuzztime $(FUZZTIME) ./internal/invisible/
	$(GO) test -run '^$$' -fuzz '^FuzzNormal$$' -fuzztime $(FUZZTIME) ./mediatype/
	$(GO) test -run '^$$' -fuzz '^FuzzSplitMarkdown$$' -fuzztime $(FUZZTIME) ./focus/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/schemacheck/
	$(GO) -C plugins/sdk test -run '^$$' -fuzz '^FuzzSniffRuleMatchContent$$' -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/office/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/epub/
	$(GO) test -run '^$$' -fuzz '^FuzzOpen$$' -fuzztime $(FUZZTIME) ./plugins/zipdoc/
	$(GO) test -run '^$$' -fuzz '^FuzzInline$$' -fuzztime $(FUZZTIME) ./plugins/markdown/
	$(GO) -C plugins/sdk test -run '^$$' -fuzz '^FuzzContainerMatch$$' -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz '^FuzzInvisibleRules$$' -fuzztime $(FUZZTIME) ./plugins/html/visibility/
	$(GO) test -run '^$$' -fuzz '^FuzzClippedClasses$$' -fuzztime $(FUZZTIME) ./plugins/html/visibility/
	$(GO) test -run '^$$' -fuzz '^FuzzCanonicalColor$$' -fuzztime $(FUZZTIME) ./plugins/html/visibility/
	$(GO) test -run '^$$' -fuzz '^FuzzFlatten$$' -fuzztime $(FUZZTIME) ./plugins/html/
	$(GO) test -run '^$$' -fuzz '^FuzzFormulas$$' -fuzztime $(FUZZTIME) ./plugins/html/

tools:
	@command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler"; exit 1; }
	GOBIN=$(TOOLS) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	GOBIN=$(TOOLS) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)

proto: tools
	rm -f $(PB_OUT)/*.pb.go
	PATH=$(TOOLS):$$PATH protoc -I $(PROTO_DIR) \
	  --go_out=. --go_opt=module=github.com/siftd/sift \
	  --go-grpc_out=. --go-grpc_opt=module=github.com/siftd/sift \
	  $(PROTO_DIR)/sift/plugin/v1/plugin.proto

# The office and epub extractors' test documents, made anew from their
# sources by Debian's pandoc and LibreOffice; the results are committed.
testdata-docs:
	bash plugins/office/testdata/generate.sh
	bash plugins/epub/testdata/generate.sh

clean:
	rm -rf bin .tools
