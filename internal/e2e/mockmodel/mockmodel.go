// Package mockmodel is a scripted stand-in for the model APIs that real coding
// agents talk to, so the end-to-end harness can run those agents offline. It
// plays a fixed list of turns (tool calls or text) and records every request,
// so a scenario can check afterwards what the client sent back to the model.
// Only the e2e harness uses it; the hook binary never imports it.
package mockmodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// ToolCall is one call the scripted model asks the client to make.
type ToolCall struct {
	Name  string
	Args  map[string]any
	Input string
	// Namespace (Responses API) is the namespace Name is in: a deferred
	// MCP server's, once a tool search has loaded it.
	Namespace string
	// Search (Responses API) makes the call a client tool_search_call
	// over the client's deferred tools, Args its arguments.
	Search bool
}

// Turn is one scripted model answer: tool calls, or plain text when Calls is empty.
type Turn struct {
	Calls []ToolCall
	Text  string
	// Do, when set, runs as the turn is taken, before the answer is sent:
	// the world changing between two of the model's calls (a person
	// editing a file the agent read).
	Do func()
}

// Request is one request a client sent, kept verbatim for later checks.
type Request struct {
	Path string
	Body string
}

// ToolCall.Input, when set, makes an OpenAI Responses "custom" (freeform)
// tool call such as Codex's apply_patch instead of a JSON function call.

// Server serves scripted turns in order; past the end it answers with text "done".
type Server struct {
	URL string

	mu       sync.Mutex
	turns    []Turn
	next     int
	requests []Request
	srv      *httptest.Server
}

// New starts a server that plays turns.
func New(turns []Turn) *Server {
	s := &Server{turns: turns}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of every request seen so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Saw reports whether any request body contained text.
func (s *Server) Saw(text string) bool {
	for _, r := range s.Requests() {
		if strings.Contains(r.Body, text) {
			return true
		}
	}
	return false
}

func (s *Server) record(r *http.Request) string {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Path: r.URL.String(), Body: string(body)})
	return string(body)
}

// take returns the next scripted turn, after running its Do.
func (s *Server) take() Turn {
	s.mu.Lock()
	if s.next >= len(s.turns) {
		s.mu.Unlock()
		return Turn{Text: "done"}
	}
	t := s.turns[s.next]
	s.next++
	s.mu.Unlock()
	if t.Do != nil {
		t.Do()
	}
	return t
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body := s.record(r)
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		s.anthropic(w, body)
	case strings.Contains(r.URL.Path, ":streamGenerateContent"):
		s.geminiStream(w)
	case strings.Contains(r.URL.Path, ":generateContent"):
		// Side requests (next-speaker checks, routing) get a neutral JSON text.
		writeJSON(w, geminiResponse(Turn{Text: `{"reasoning":"done","next_speaker":"user"}`}))
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chat(w, body)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		s.responsesStream(w)
	case strings.Contains(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	case strings.HasPrefix(r.URL.Path, "/augment/"):
		s.augment(w, strings.TrimPrefix(r.URL.Path, "/augment"))
	default:
		http.Error(w, "mockmodel: unknown path "+r.URL.Path, http.StatusNotFound)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func geminiResponse(t Turn) map[string]any {
	var parts []any
	for _, c := range t.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Args}})
	}
	if len(parts) == 0 {
		parts = append(parts, map[string]any{"text": t.Text})
	}
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "mock",
	}
}

func (s *Server) geminiStream(w http.ResponseWriter) {
	b, _ := json.Marshal(geminiResponse(s.take()))
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
}

// responsesStream answers an OpenAI Responses request with SSE events.
func (s *Server) responsesStream(w http.ResponseWriter) {
	t := s.take()
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_mock_%d", len(s.Requests()))
	event := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	for i, c := range t.Calls {
		callID := fmt.Sprintf("call_mock_%s_%d", id, i)
		item := map[string]any{"type": "function_call", "id": "fc_" + callID, "call_id": callID, "name": c.Name}
		if c.Namespace != "" {
			item["namespace"] = c.Namespace
		}
		switch {
		case c.Search:
			item = map[string]any{"type": "tool_search_call", "id": "tsc_" + callID, "call_id": callID,
				"execution": "client", "status": "completed", "arguments": c.Args}
		case c.Input != "":
			item["type"], item["input"] = "custom_tool_call", c.Input
			item["id"] = "ctc_" + callID
		default:
			args, _ := json.Marshal(c.Args)
			item["arguments"] = string(args)
		}
		event(map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
	}
	if len(t.Calls) == 0 {
		item := map[string]any{"type": "message", "role": "assistant", "id": "msg_" + id,
			"content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}}
		event(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	}
	event(map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}})
}

// anthropic answers an Anthropic Messages request. Requests without tools
// (titles, summaries) get text and do not consume a scripted turn.
func (s *Server) anthropic(w http.ResponseWriter, body string) {
	var req struct {
		Stream bool  `json:"stream"`
		Tools  []any `json:"tools"`
	}
	_ = json.Unmarshal([]byte(body), &req)
	t := Turn{Text: "done"}
	if len(req.Tools) > 0 {
		t = s.take()
	}
	id := fmt.Sprintf("msg_mock_%d", len(s.Requests()))
	var blocks []map[string]any
	for i, c := range t.Calls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_mock_%s_%d", id, i), "name": c.Name, "input": c.Args})
	}
	stop := "tool_use"
	if len(blocks) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": t.Text})
		stop = "end_turn"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": "claude-mock",
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	event(map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": "claude-mock", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	for i, b := range blocks {
		var start, delta map[string]any
		if b["type"] == "text" {
			start = map[string]any{"type": "text", "text": ""}
			delta = map[string]any{"type": "text_delta", "text": b["text"]}
		} else {
			start = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
			in, _ := json.Marshal(b["input"])
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(in)}
		}
		event(map[string]any{"type": "content_block_start", "index": i, "content_block": start})
		event(map[string]any{"type": "content_block_delta", "index": i, "delta": delta})
		event(map[string]any{"type": "content_block_stop", "index": i})
	}
	event(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	event(map[string]any{"type": "message_stop"})
}

// chat answers an OpenAI Chat Completions request, streaming when asked.
// Requests without tools (side checks) get a neutral JSON text and do not
// consume a scripted turn.
func (s *Server) chat(w http.ResponseWriter, body string) {
	var req struct {
		Stream bool  `json:"stream"`
		Tools  []any `json:"tools"`
	}
	_ = json.Unmarshal([]byte(body), &req)
	t := Turn{Text: `{"reasoning":"done","next_speaker":"user"}`}
	if len(req.Tools) > 0 {
		t = s.take()
	}
	id := fmt.Sprintf("chatcmpl_mock_%d", len(s.Requests()))
	var calls []any
	for i, c := range t.Calls {
		args, _ := json.Marshal(c.Args)
		calls = append(calls, map[string]any{"index": i, "id": fmt.Sprintf("call_mock_%d_%d", len(s.Requests()), i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": string(args)}})
	}
	msg := map[string]any{"role": "assistant"}
	finish := "stop"
	if len(calls) > 0 {
		msg["tool_calls"], finish = calls, "tool_calls"
	} else {
		msg["content"] = t.Text
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": "mock",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) {
		v := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": "mock",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			v["usage"] = usage
		}
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(msg, nil, nil)
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// augment answers an Augment tenant's API (Auggie's tenantURL is URL +
// "/augment/"): the model list, with hooks switched on for the tenant; no
// remote tools; the chat as JSON lines, a turn's tool calls as tool-use
// nodes (type 5) with their input JSON-encoded, ended by a stop reason
// (3: tool use requested, 1: end of turn). Every other endpoint (settings,
// error reports) gets an empty object.
func (s *Server) augment(w http.ResponseWriter, path string) {
	switch path {
	case "/get-models":
		writeJSON(w, map[string]any{
			"default_model": "mock",
			"models":        []any{map[string]any{"name": "mock", "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}},
			"feature_flags": map[string]any{"enable_hooks": true},
		})
	case "/agents/list-remote-tools":
		writeJSON(w, map[string]any{"tools": []any{}})
	case "/chat-stream":
		t := s.take()
		id := len(s.Requests())
		w.Header().Set("Content-Type", "application/json")
		line := func(v map[string]any) {
			b, _ := json.Marshal(v)
			w.Write(append(b, '\n'))
		}
		if len(t.Calls) == 0 {
			line(map[string]any{"text": t.Text, "nodes": []any{map[string]any{"id": 1, "type": 0, "content": t.Text}}})
			line(map[string]any{"text": "", "stop_reason": 1})
			return
		}
		var nodes []any
		for i, c := range t.Calls {
			input, _ := json.Marshal(c.Args)
			nodes = append(nodes, map[string]any{"id": i + 1, "type": 5, "content": "", "tool_use": map[string]any{
				"tool_use_id": fmt.Sprintf("call_mock_%d_%d", id, i), "tool_name": c.Name, "input_json": string(input)}})
		}
		line(map[string]any{"text": "", "nodes": nodes})
		line(map[string]any{"text": "", "stop_reason": 3})
	default:
		writeJSON(w, map[string]any{})
	}
}
