/**
 * `npx tsx bench/agent-calls.ts`: what recording one agent call costs the worker's code (validation,
 * masking, the step on the timeline) and how many bytes a call adds, printed, never asserted. Run in
 * Node on the recorder with in-memory stores (the service worker adds its IndexedDB write of the step):
 *   - `afr.toolCall` with a small input and output (an HTTP-tool-sized call, a key to mask);
 *   - `afr.toolCall` with a 60-hit search result as its output (~5 KiB of JSON);
 *   - `afr.modelCall` with a 6-message conversation of ~4 KiB.
 * Bytes per call: the JSON text of its `agent.json` entry plus its step in `steps.json`, as a bundle holds them.
 * BENCH_ROUNDS (default 400) tunes it.
 */
import { performance } from 'node:perf_hooks';
import { layOutAgentCalls } from '../src/bundle/agent-file';
import { setupRecorder } from '../test/fakes/recorder';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const KEY = `sk-proj-${'Ab3dE5fG7h'.repeat(5)}`;
const hits = Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Red running shoe model ${i}`, price: 40 + i, url: `https://shop.test/p/${i}` }));
const messages = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Turn ${i}: ${'find red shoes in size 42 and compare prices; '.repeat(14)}` }));

const CASES = {
  'toolCall, small': { kind: 'toolCall', input: { tool: 'http_get', input: { url: 'https://api.test/v1/items', headers: { Authorization: `Bearer ${KEY}` } }, output: { status: 200, items: 3 }, status: 'ok', latencyMs: 120 } },
  'toolCall, 60-hit output': { kind: 'toolCall', input: { tool: 'search', input: { q: 'red shoes' }, output: { hits }, status: 'ok', latencyMs: 300 } },
  'modelCall, 6 messages': { kind: 'modelCall', input: { model: 'gpt-4o', messages, response: 'search("red shoes")', tokensIn: 1200, tokensOut: 40 } },
} as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [name, c] of Object.entries(CASES)) {
  const { afr, ports, clock } = setupRecorder();
  await afr.runStart({ tabId: 7 });
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    clock.t += 1;
    const t0 = performance.now();
    await (c.kind === 'toolCall' ? afr.toolCall(c.input as never) : afr.modelCall(c.input as never));
    times.push(performance.now() - t0);
  }
  const steps = (await ports.stepLog.inWindow(0, clock.t + 1)).filter((s) => s.agent_call);
  const { steps: laid, agent } = layOutAgentCalls('b', steps.slice(-1));
  const entry = agent!.tool_calls[0] ?? agent!.model_calls[0];
  const bytes = Buffer.byteLength(JSON.stringify(entry, null, 2)) + Buffer.byteLength(JSON.stringify(laid[0], null, 2));
  console.log(`${name}: median ${median(times).toFixed(3)} ms per call (${ROUNDS} calls), ${bytes} bytes per call in the bundle (uncompressed)`);
}
