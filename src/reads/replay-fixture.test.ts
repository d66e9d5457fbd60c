import { describe, expect, it } from 'vitest';
import type { AgentFile } from '../../schemas/agent-calls';
import { ReplayFixtureSchema } from '../../schemas/replay-fixture';
import { BUNDLE_ID, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { canonicalHash } from '../shared/canonical-json';
import { openBundle } from './open-bundle';
import { conversationOf, fixtureId, replayFixture } from './replay-fixture';

const place = (id: string, seq: number) => ({ id, seq, step_seq: null, run_id: 'run-1', tab_id: 1, ts: 0 });
const model = (id: string, seq: number, messages: { role: string; content: string }[], response: unknown) => ({
  ...place(id, seq), model: 'gpt-4o', messages, response, tokens_in: null, tokens_out: null, latency_ms: null, temperature: 0.2, max_tokens: 512, cost_usd: null,
});
const agent: AgentFile = {
  version: 1,
  bundle_id: BUNDLE_ID,
  model_calls: [
    model('model-1', 1, [{ role: 'system', content: 'You shop.' }, { role: 'user', content: 'Buy shoes for [email]' }], { tool: 'search' }),
    model('model-3', 3, [{ role: 'system', content: 'You shop.' }, { role: 'user', content: 'Buy shoes for [email]' }, { role: 'assistant', content: '{"tool":"search"}' }, { role: 'tool', content: '2 hits' }], 'checkout'),
  ],
  tool_calls: [
    { ...place('tool-2', 2), tool: 'search', input: { q: 'shoes', key: '[redacted 32+]' }, output: { hits: 2 }, status: 'ok', latency_ms: 40, error: null },
    { ...place('tool-4', 4), tool: 'checkout', input: { cart: 1 }, status: 'timeout', latency_ms: 30_000, error: 'no answer' },
  ],
};

describe('replayFixture', () => {
  it('writes the conversation, the tool history with hashes, the model settings and the failing call', async () => {
    const fixture = await replayFixture(await openBundle(await makeBundle({ agent })));
    expect(ReplayFixtureSchema.parse(fixture)).toEqual(fixture);
    expect(fixture).toMatchObject({
      fixture_id: 'agent_fail_20261122_120000',
      session_id: 'run-1',
      recorded_at: '2026-11-22T12:00:00.000Z',
      context_env: { model: 'gpt-4o', temperature: 0.2, max_tokens: 512 },
      failure_type: 'tool_timeout',
      failure_signal: 'checkout timeout after 30000 ms: no answer',
      failure_reason: 'page_exception',
    });
    expect(fixture.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(fixture.tool_history).toEqual([
      { tool: 'search', args_hash: await canonicalHash({ key: '[redacted 32+]', q: 'shoes' }), result_hash: await canonicalHash({ hits: 2 }), latency_ms: 40, status: 'ok', call_status: 'ok' },
      { tool: 'checkout', args_hash: await canonicalHash({ cart: 1 }), result_hash: null, latency_ms: 30_000, status: 'soft_fail', call_status: 'timeout' },
    ]);
  });

  it('gives the same hashes for the same masked calls in another bundle', async () => {
    const reordered = { ...agent, tool_calls: agent.tool_calls.map((c) => ({ ...c, input: Object.fromEntries(Object.entries(c.input as object).reverse()), ts: 99 })) };
    const [a, b] = await Promise.all([agent, reordered].map(async (file) => (await replayFixture(await openBundle(await makeBundle({ agent: file })))).tool_history));
    expect(b).toEqual(a);
  });

  it('gives an empty history and the bundle\'s failure without agent.json', async () => {
    const fixture = await replayFixture(await openBundle(await makeBundle()));
    expect(fixture).toMatchObject({ messages: [], tool_history: [], context_env: { model: null }, failure_type: 'page_exception' });
  });
});

describe('conversationOf', () => {
  it('keeps a call\'s whole messages when they do not repeat the conversation so far', () => {
    expect(conversationOf([{ messages: [{ role: 'user', content: 'a' }] }, { messages: [{ role: 'user', content: 'b' }] }])).toEqual([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
  });
});

describe('fixtureId', () => {
  it('is the failure time, UTC', () => {
    expect(fixtureId(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('agent_fail_20260102_030405');
  });
});
