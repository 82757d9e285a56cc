# sift — build, run, test, bench and regenerate protobuf code.
GO        ?= go
BIN       := bin/sift
TOOLS     := $(CURDIR)/.tools
PROTO_DIR := plugins/sdk/proto
PB_OUT    := plugins/sdk/internal/pluginv1
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.0
# Packages whose code runs concurrently get the race detector.
RACE_PKGS := ./plugins/... ./stages/... ./cmd/... ./internal/... ./server/... ./store/... ./search/... ./health/... ./honcho/... ./batch/...
BENCH_DATA ?= ../shared/bench/extract
# An OpenAI-compatible embeddings endpoint (…/v1) for the retrieval measurement; empty: BM25 alone.
EMBED_URL ?=

.PHONY: build run test e2e bench fuzz proto tools clean

# sift and sift-html, its HTML extractor, which it finds beside itself.
build:
	$(GO) build -o bin/ ./cmd/sift ./cmd/sift-html

# config.hcl is read from disk (the binary embeds config/default.hcl), so
# an edit of it relinks nothing: go build finds both binaries up to date.
run: build
	./$(BIN) serve --config config.hcl

# A hung test fails its package with a goroutine dump instead of stalling CI.
TEST_TIMEOUT ?= 10m

test: build
	$(GO) vet ./...
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) -race $(RACE_PKGS)
	cd examples/extractor && $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 20x ./plugins/host/
	$(GO) test -run '^$$' -bench . -benchtime 181x ./plugins/html/
	$(GO) test -run '^$$' -bench . -benchtime 2s ./server/
	$(GO) test -run '^$$' -bench BatchThroughput -benchtime 1x ./cmd/sift/
	FOCUS_BENCH_DATA=$(abspath $(BENCH_DATA))/data FOCUS_EMBED_URL=$(EMBED_URL) \
	  $(GO) test -count=1 -timeout 60m -v -run '^TestRetrievalBench$$' ./focus/
	@if [ -d "$(BENCH_DATA)" ] && command -v python3 >/dev/null; then \
	  python3 $(BENCH_DATA)/eval.py --dataset scrapinghub --batch --quiet --cmd '$(BIN) extract --batch'; \
	  python3 $(BENCH_DATA)/eval.py --dataset wcxb-dev --batch --quiet --cmd '$(BIN) extract --batch'; \
	fi

# The black-box SSRF suite: as root, in a throw-away network namespace.
e2e:
	bash e2e/ssrf/run.sh

# Each fuzz target for FUZZTIME; the seeds also run in make test.
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzPreCheck$$' -fuzztime $(FUZZTIME) ./stages/guard/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./stages/guard/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./config/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/json/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/html/
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./plugins/pdf/
	$(GO) test -run '^$$' -fuzz '^FuzzSplitMarkdown$$' -fuzztime $(FUZZTIME) ./focus/

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

clean:
	rm -rf bin .tools
