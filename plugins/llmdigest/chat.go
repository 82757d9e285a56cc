package llmdigest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"

	"github.com/siftd/sift/plugins/sdk"
)

// Error classes of a failed digest; the digest stage falls back to clean
// text for every one and names it in a warning.
const (
	ClassTimeout     = "timeout"
	ClassBusy        = "busy"
	ClassUnavailable = "unavailable"
	ClassOverflow    = "context_overflow"
	ClassBadAnswer   = "bad_answer"
)

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model              string         `json:"model,omitempty"`
	Messages           []chatMessage  `json:"messages"`
	MaxTokens          int            `json:"max_tokens"`
	Temperature        float64        `json:"temperature"`
	Stream             bool           `json:"stream"`
	ChatTemplateKwargs map[string]any `json:"chat_template_kwargs,omitempty"`
	ReasoningEffort    string         `json:"reasoning_effort,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

type errorBody struct {
	Error json.RawMessage `json:"error"`
}

// overflowDetail is what llama.cpp's server adds to an
// exceed_context_size_error.
type overflowDetail struct {
	NPromptTokens int `json:"n_prompt_tokens"`
	NCtx          int `json:"n_ctx"`
}

// overflowError is a context overflow with the server's own count of the
// prompt, when it gave one.
type overflowError struct {
	*sdk.DocError
	prompt, ctx int
}

func (e *overflowError) Unwrap() error { return e.DocError }

// request builds the chat request for one digest.
func (d *Digester) request(req *sdk.DigestRequest, content string, maxTokens int) chatRequest {
	cr := chatRequest{
		Model: d.cfg.Model, MaxTokens: maxTokens, Temperature: 0.2,
		Messages: []chatMessage{
			{Role: "system", Content: systemPrompt(maxTokens)},
			{Role: "user", Content: userPrompt(req, content)},
		},
	}
	if !d.cfg.Thinking {
		switch d.cfg.Flavor {
		case FlavorLlamaCpp:
			cr.ChatTemplateKwargs = map[string]any{"enable_thinking": false}
		case FlavorOllama:
			cr.ReasoningEffort = "none"
		}
	}
	return cr
}

// call sends one chat request and returns the assistant's text.
func (d *Digester) call(ctx context.Context, cr chatRequest) (string, error) {
	payload, _ := json.Marshal(cr)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(d.cfg.Endpoint, "/")+"/chat/completions", bytes.NewReader(payload))
	if err != nil {
		return "", &sdk.DocError{Class: ClassUnavailable, Message: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if d.cfg.apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+d.cfg.apiKey)
	}
	resp, err := d.client.Do(hreq)
	if err != nil {
		return "", transportError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return "", transportError(ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", statusError(resp.StatusCode, body)
	}
	var cresp chatResponse
	if err := json.Unmarshal(body, &cresp); err != nil || len(cresp.Choices) == 0 {
		return "", &sdk.DocError{Class: ClassBadAnswer, Message: "the server's answer has no choices"}
	}
	return stripThinking(cresp.Choices[0].Message.Content), nil
}

func transportError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return &sdk.DocError{Class: ClassTimeout, Message: "the model did not answer in time"}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &sdk.DocError{Class: ClassUnavailable, Message: "connection refused"}
	}
	return &sdk.DocError{Class: ClassUnavailable, Message: err.Error()}
}

func statusError(status int, body []byte) error {
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300]
	}
	var eb errorBody
	_ = json.Unmarshal(body, &eb)
	switch {
	case status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests:
		return &sdk.DocError{Class: ClassBusy, Message: fmt.Sprintf("status %d: %s", status, msg)}
	case status == http.StatusBadRequest && bytes.Contains(eb.Error, []byte("exceed_context_size")):
		var od overflowDetail
		_ = json.Unmarshal(eb.Error, &od)
		return &overflowError{DocError: &sdk.DocError{Class: ClassOverflow, Message: msg}, prompt: od.NPromptTokens, ctx: od.NCtx}
	}
	return &sdk.DocError{Class: ClassUnavailable, Message: fmt.Sprintf("status %d: %s", status, msg)}
}

// thinkBlock matches reasoning a model wrote into its answer anyway.
var thinkBlock = regexp.MustCompile(`(?s)<think>.*?</think>`)

// stripThinking removes reasoning text: it is never returned as a digest.
func stripThinking(s string) string {
	s = thinkBlock.ReplaceAllString(s, "")
	if i := strings.Index(s, "<think>"); i >= 0 { // unterminated: all of it is thinking
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
