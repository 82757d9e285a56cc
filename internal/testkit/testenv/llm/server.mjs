// Minimal OpenAI-compatible server (llama-server flavoured) on top of node-llama-cpp:
// real llama.cpp inference on the CPU, HTTP shapes modelled on llama-server, for tests.
// Started by the Go helper in this directory (llm.Chat); by hand, after `npm install`:
//
//   MODEL=/path/chat.gguf [EMBED_MODEL=/path/embed.gguf] PORT=18080 THREADS=1 PARALLEL=1 \
//   CTX=2048 BUSY=queue|503 MAX_QUEUE=0 node server.mjs
//
// Endpoints: GET /health, GET /v1/models, GET /slots,
//            POST /v1/chat/completions (stream or not; response_format json_object
//            and json_schema as a grammar), POST /v1/embeddings
import http from "node:http";
import {getLlama, LlamaChatSession, TokenBias} from "node-llama-cpp";

const env = process.env;
const MODEL = env.MODEL;
const EMBED_MODEL = env.EMBED_MODEL || MODEL;
const PORT = Number(env.PORT || 18080);
const HOST = env.HOST || "127.0.0.1";
const THREADS = Number(env.THREADS || 1);      // 1 is much faster than 2 on a busy 2-core box
const PARALLEL = Number(env.PARALLEL || 1);    // llama-server --parallel
const CTX = Number(env.CTX || 2048);           // per-slot context (llama-server -c / --parallel)
const BUSY = env.BUSY || "queue";              // "queue" = llama-server, "503" = Ollama-like max queue
const MAX_QUEUE = Number(env.MAX_QUEUE || 0);  // used when BUSY=503
const ALIAS = env.ALIAS || (MODEL || "").split("/").pop();

let state = "loading";
let llama, model, context, embedModel, embedCtx;
const slots = Array.from({length: PARALLEL}, (_, id) => ({id, busy: false, task: null}));
const waiters = [];
let nextId = 1;

function send(res, status, obj, headers = {}) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {"Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), ...headers});
  res.end(body);
}
const err = (res, code, message, type, extra = {}) => send(res, code, {error: {code, message, type, ...extra}});

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", c => chunks.push(c));
    req.on("end", () => { try { resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {}); } catch (e) { reject(e); } });
    req.on("error", reject);
  });
}

function acquireSlot() {
  const free = slots.find(s => !s.busy);
  if (free) { free.busy = true; return Promise.resolve(free); }
  if (BUSY === "503" && waiters.length >= MAX_QUEUE) return null;
  return new Promise(resolve => waiters.push(resolve));
}
function releaseSlot(slot) {
  const w = waiters.shift();
  if (w) w(slot); else slot.busy = false;
}

// llama-server's response_format: "json_object" (any JSON, or its "schema")
// and OpenAI's "json_schema" become a grammar the sampler must follow.
async function grammarFor(rf) {
  if (!rf || rf.type === "text") return undefined;
  const schema = rf.type === "json_schema" ? (rf.json_schema?.schema ?? rf.schema) : rf.type === "json_object" ? rf.schema : null;
  if (rf.type !== "json_schema" && rf.type !== "json_object") throw new Error(`response_format type must be "text", "json_object" or "json_schema"`);
  return schema ? await llama.createGrammarForJsonSchema(schema) : await llama.getGrammarFor("json");
}

const contentText = c => Array.isArray(c) ? c.map(p => (typeof p === "string" ? p : p.text || "")).join("") : String(c ?? "");

function toHistory(messages) {
  const hist = [];
  for (const m of messages.slice(0, -1)) {
    const text = contentText(m.content);
    if (m.role === "system" || m.role === "developer") hist.push({type: "system", text});
    else if (m.role === "assistant") hist.push({type: "model", response: [text]});
    else hist.push({type: "user", text});
  }
  return hist;
}

async function chat(req, res, body) {
  const messages = body.messages || [];
  if (!messages.length) return err(res, 400, "'messages' is required", "invalid_request_error");
  const last = messages[messages.length - 1];
  const maxTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? body.n_predict ?? 256);
  const promptText = messages.map(m => contentText(m.content)).join("\n");
  const nPromptEstimate = model.tokenize(promptText).length;
  if (nPromptEstimate >= CTX) {
    return err(res, 400, `request (${nPromptEstimate} tokens) exceeds the available context size (${CTX} tokens), try increasing it`,
      "exceed_context_size_error", {n_prompt_tokens: nPromptEstimate, n_ctx: CTX});
  }
  let grammar;
  try { grammar = await grammarFor(body.response_format); }
  catch (e) { return err(res, 400, String(e?.message || e), "invalid_request_error"); }
  const slotP = acquireSlot();
  if (slotP === null) return err(res, 503, "server busy, please try again.  maximum pending requests exceeded", "unavailable_error");
  const slot = await slotP;
  const abort = new AbortController();
  res.on("close", () => { if (!res.writableFinished) abort.abort(); });
  const id = `chatcmpl-${nextId++}`, created = Math.floor(Date.now() / 1000);
  const stream = !!body.stream;
  let seq, session;
  try {
    seq = context.getSequence();
    session = new LlamaChatSession({contextSequence: seq, autoDisposeSequence: true});
    session.setChatHistory(toHistory(messages));
    if (stream) {
      res.writeHead(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive"});
      res.write(`data: ${JSON.stringify({id, object: "chat.completion.chunk", created, model: ALIAS, choices: [{index: 0, delta: {role: "assistant", content: null}, finish_reason: null}]})}\n\n`);
    }
    const t0 = performance.now();
    let tFirst = null;
    const meta = await session.promptWithMeta(contentText(last.content), {
      maxTokens, temperature: body.temperature ?? 0.8, seed: body.seed, topP: body.top_p, grammar,
      // llama-server's "ignore_eos": keep generating to max_tokens (benchmarks with synthetic weights)
      tokenBias: body.ignore_eos ? (() => { const b = new TokenBias(model.tokenizer); for (const t of [model.tokens.eos, model.tokens.eot].filter(x => x != null)) b.set(t, "never"); return b; })() : undefined,
      customStopTriggers: body.stop ? [].concat(body.stop) : undefined,
      signal: abort.signal, stopOnAbortSignal: true,
      onTextChunk: chunk => {
        tFirst ??= performance.now();
        if (stream) res.write(`data: ${JSON.stringify({id, object: "chat.completion.chunk", created, model: ALIAS, choices: [{index: 0, delta: {content: chunk}, finish_reason: null}]})}\n\n`);
      },
    });
    const t1 = performance.now();
    const text = meta.responseText;
    const tokenMeter = seq.tokenMeter?.getState?.();
    const nPred = tokenMeter?.usedOutputTokens ?? model.tokenize(text).length;
    const nPrompt = tokenMeter?.usedInputTokens ?? nPromptEstimate;
    const promptMs = (tFirst ?? t1) - t0, predMs = t1 - (tFirst ?? t1);
    const timings = {
      cache_n: 0, prompt_n: nPrompt, prompt_ms: promptMs, prompt_per_token_ms: promptMs / Math.max(nPrompt, 1),
      prompt_per_second: nPrompt / Math.max(promptMs / 1000, 1e-9),
      predicted_n: nPred, predicted_ms: predMs, predicted_per_token_ms: predMs / Math.max(nPred, 1),
      predicted_per_second: nPred / Math.max(predMs / 1000, 1e-9),
    };
    const finish = meta.stopReason === "maxTokens" ? "length" : "stop";
    const usage = {completion_tokens: nPred, prompt_tokens: nPrompt, total_tokens: nPred + nPrompt};
    if (stream) {
      res.write(`data: ${JSON.stringify({id, object: "chat.completion.chunk", created, model: ALIAS, choices: [{index: 0, delta: {}, finish_reason: finish}], usage, timings})}\n\n`);
      res.end("data: [DONE]\n\n");
    } else {
      send(res, 200, {id, object: "chat.completion", created, model: ALIAS, system_fingerprint: "node-llama-cpp",
        choices: [{index: 0, message: {role: "assistant", content: text}, finish_reason: finish}], usage, timings,
        // echo of what a llama-server --jinja would have passed to the template (for test assertions)
        ...(body.chat_template_kwargs ? {_chat_template_kwargs: body.chat_template_kwargs} : {})});
    }
  } catch (e) {
    if (!res.headersSent) err(res, 500, String(e?.message || e), "server_error"); else res.end();
  } finally {
    try { session?.dispose?.(); } catch {}
    releaseSlot(slot);
  }
}

async function embeddings(req, res, body) {
  const inputs = [].concat(body.input ?? body.content ?? []);
  if (!inputs.length) return err(res, 400, "'input' is required", "invalid_request_error");
  const data = [];
  let nTok = 0;
  for (const [index, input] of inputs.entries()) {
    const text = Array.isArray(input) ? embedModel.detokenize(input) : String(input);
    nTok += embedModel.tokenize(text).length;
    const e = await embedCtx.getEmbeddingFor(text);
    let v = Array.from(e.vector);
    const norm = Math.hypot(...v) || 1;           // llama-server normalises (L2) by default
    v = v.map(x => x / norm);
    data.push({object: "embedding", index, embedding: v});
  }
  send(res, 200, {object: "list", data, model: body.model || ALIAS, usage: {prompt_tokens: nTok, total_tokens: nTok}});
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  try {
    if (state !== "ready" && url.pathname !== "/health" && req.method === "POST")
      return err(res, 503, "Loading model", "unavailable_error");
    if (req.method === "GET" && url.pathname === "/health")
      return state === "ready" ? send(res, 200, {status: "ok"}) : err(res, 503, "Loading model", "unavailable_error");
    if (req.method === "GET" && url.pathname === "/v1/models")
      return send(res, 200, {object: "list", data: [{id: ALIAS, object: "model", created: 0, owned_by: "llamacpp", meta: {n_ctx_train: model?.trainContextSize}}]});
    if (req.method === "GET" && url.pathname === "/slots")
      return send(res, 200, slots.map(s => ({id: s.id, n_ctx: CTX, is_processing: s.busy})));
    if (req.method === "POST" && (url.pathname === "/v1/chat/completions" || url.pathname === "/chat/completions"))
      return await chat(req, res, await readBody(req));
    if (req.method === "POST" && (url.pathname === "/v1/embeddings" || url.pathname === "/embeddings"))
      return await embeddings(req, res, await readBody(req));
    err(res, 404, "File Not Found", "not_found_error");
  } catch (e) {
    if (!res.headersSent) err(res, 500, String(e?.message || e), "server_error");
  }
});

server.listen(PORT, HOST, async () => {
  console.error(`listening on http://${HOST}:${server.address().port} (loading ${MODEL})`);
  const t0 = Date.now();
  llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
  model = await llama.loadModel({modelPath: MODEL});
  context = await model.createContext({contextSize: CTX * PARALLEL, sequences: PARALLEL, threads: THREADS});
  embedModel = EMBED_MODEL === MODEL ? model : await llama.loadModel({modelPath: EMBED_MODEL});
  embedCtx = await embedModel.createEmbeddingContext({threads: THREADS});
  state = "ready";
  // The test helper waits for this line; PORT=0 lets the kernel pick the port.
  console.error(`ready http://${HOST}:${server.address().port} in ${Date.now() - t0} ms`);
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
