// Package llmdigest is the built-in digester "llm": it asks an OpenAI-compatible
// chat endpoint (llama.cpp's server, Ollama, vLLM) to condense a page
// around the agent's question. The page goes in as quoted, untrusted data.
package llmdigest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/plugins/sdk"
)

// fallbackTimeout bounds a call that comes without a deadline. The host
// gives every call the block's timeout (config.DefaultDigestTimeout, 60 s,
// unless set) as its deadline, so this is no default of the block.
const fallbackTimeout = 60 * time.Second

// Defaults of a digester block.
const (
	DefaultMaxTokens = 1500
	// DefaultContextTokens is the context assumed when it is neither
	// configured nor learned from the server.
	DefaultContextTokens = 8192
)

// Flavours of server, which differ in how thinking is turned off.
const (
	FlavorLlamaCpp = "llamacpp" // chat_template_kwargs: {enable_thinking: false}
	FlavorOllama   = "ollama"   // reasoning_effort: "none"
	FlavorOpenAI   = "openai"   // neither: the model decides
)

// Config is the digester block's plugin-specific part.
type Config struct {
	Endpoint      string `json:"endpoint"`
	Model         string `json:"model"`
	Flavor        string `json:"flavor"`
	Thinking      bool   `json:"thinking"`
	MaxTokens     int    `json:"max_tokens"`
	ContextTokens int    `json:"context_tokens"`
	APIKeyEnv     string `json:"api_key_env"`

	timeout time.Duration
	apiKey  string
}

// Digester calls the configured chat endpoint.
type Digester struct {
	cfg    Config
	client *http.Client
	window *window
}

// New returns a digester with defaults; Configure sets the endpoint.
func New() *Digester {
	return &Digester{cfg: Config{Flavor: FlavorLlamaCpp, MaxTokens: DefaultMaxTokens, timeout: fallbackTimeout},
		client: guard.NewOperatorClient(0), window: &window{}}
}

// Info names the plugin.
func (*Digester) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "llm", Version: "1.0.0"}, nil
}

// Schema lists the digester block's attributes.
func (*Digester) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: []sdk.Attribute{
		{Name: "endpoint", Type: sdk.TypeString, Required: true, Description: "OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1"},
		{Name: "model", Type: sdk.TypeString, Description: "model name sent with each request"},
		{Name: "flavor", Type: sdk.TypeString, Description: `"llamacpp" (default), "ollama" or "openai": how thinking is turned off`},
		{Name: "thinking", Type: sdk.TypeBool, Description: "let the model think first (slower); off by default"},
		{Name: "max_tokens", Type: sdk.TypeNumber, Description: "token budget of a digest (default 1500)"},
		{Name: "context_tokens", Type: sdk.TypeNumber, Description: "the model's context; unset, it is learned from the server (llama.cpp /props or /slots, Ollama /api/show), else 8192"},
		{Name: "api_key_env", Type: sdk.TypeString, Env: true, Description: "environment variable holding a bearer key"},
	}}, nil
}

// Configure reads the block and checks it.
func (d *Digester) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg := d.cfg
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	var diags sdk.Diagnostics
	bad := func(attr, format string, args ...any) {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Attribute: attr, Summary: fmt.Sprintf(format, args...)})
	}
	if !strings.HasPrefix(cfg.Endpoint, "http://") && !strings.HasPrefix(cfg.Endpoint, "https://") {
		bad("endpoint", "endpoint must be an http(s) URL, got %q", cfg.Endpoint)
	}
	switch cfg.Flavor {
	case FlavorLlamaCpp, FlavorOllama, FlavorOpenAI:
	default:
		bad("flavor", "flavor must be llamacpp, ollama or openai, got %q", cfg.Flavor)
	}
	if cfg.MaxTokens < 16 || cfg.ContextTokens < 0 || cfg.ContextTokens > 0 && cfg.ContextTokens <= cfg.MaxTokens {
		bad("max_tokens", "max_tokens must be at least 16 and below context_tokens (%d)", cfg.ContextTokens)
	}
	if cfg.APIKeyEnv != "" {
		cfg.apiKey = os.Getenv(cfg.APIKeyEnv)
	}
	if !diags.HasErrors() {
		d.cfg = cfg
	}
	return diags, nil
}

// Upstream is the chat endpoint the configured digester calls and the
// bearer key it sends (from api_key_env), for sift's health report.
func (d *Digester) Upstream() (url, key string) { return d.cfg.Endpoint, d.cfg.apiKey }

var _ sdk.Digester = (*Digester)(nil)
