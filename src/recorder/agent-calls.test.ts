import { describe, expect, it } from 'vitest';
import { origin, setupRecorder } from '../../test/fakes/recorder';

const OPENAI_KEY = `sk-proj-${'Ab3dE5fG7h'.repeat(5)}`;

describe('afr.toolCall and afr.modelCall', () => {
  it('put each call on the timeline, masked, tied to the agent step current and the run', async () => {
    const { afr, ports, clock } = setupRecorder();
    await afr.configure({ persistMode: 'manual' });
    const runId = await afr.runStart({ tabId: 7, runId: 'run-calls' });
    clock.t += 10;
    await afr.step({ tabId: 7, action: 'search the catalogue' });
    clock.t += 10;
    await afr.modelCall({ tabId: 7, model: 'gpt-4o', messages: [{ role: 'user', content: 'write to ana@example.com' }], tokensIn: 10, tokensOut: 2 });
    clock.t += 10;
    await afr.toolCall({ tabId: 7, tool: 'search', input: { q: 'shoes', api_key: OPENAI_KEY }, output: { hits: 3 }, status: 'ok', latencyMs: 40 });
    const steps = await ports.stepLog.between(7, 0, clock.t);
    const agentStep = steps.find((s) => s.kind === 'agent')!;
    const [model, tool] = steps.filter((s) => s.kind === 'model_call' || s.kind === 'tool_call');
    expect(runId).toBe('run-calls');
    expect(model).toMatchObject({ kind: 'model_call', action: 'model gpt-4o', source: 'agent', tab_id: 7, detail: { run_id: 'run-calls' }, agent_call: { type: 'model', step_seq: agentStep.seq } });
    expect(tool).toMatchObject({ kind: 'tool_call', action: 'tool search', outcome: 'ok', detail: { call_status: 'ok', duration_ms: 40 }, agent_call: { type: 'tool', step_seq: agentStep.seq, output: { hits: 3 } } });
    const text = JSON.stringify(steps);
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).not.toContain('ana@example.com');
  });

  it.each([
    ['a missing status', { tool: 'search' }, /afr\.toolCall: status/],
    ['an unknown status', { tool: 'search', status: 'maybe' }, /afr\.toolCall: status/],
    ['an unknown field', { tool: 'search', status: 'ok', extra: 1 }, /Unrecognized key/],
    ['a circular input', (() => { const o: Record<string, unknown> = {}; o.o = o; return { tool: 't', status: 'ok', input: o }; })(), /circular reference/],
    ['50 MB of output', { tool: 't', status: 'ok', output: 'x'.repeat(50 * 1024 * 1024) }, /longer than 262144 characters/],
    ['10,000 levels', { tool: 't', status: 'ok', input: JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) }, /nested deeper than 32 levels/],
    ['binary input', { tool: 't', status: 'ok', input: new Uint8Array(8) }, /binary data/],
    ['a function', { tool: 't', status: 'ok', input: { f: () => 1 } }, /a function is not a JSON value/],
    ['a tab outside the scope', { tabId: 99, tool: 't', status: 'ok' }, /tab 99 is outside the recording scope/],
  ])('refuse %s, storing nothing', async (_name, input, message) => {
    const { afr, ports, clock } = setupRecorder();
    await afr.configure({ scope: 'agent' });
    await afr.runStart({ tabId: 7 });
    await expect(afr.toolCall(input as never)).rejects.toThrow(message);
    expect((await ports.stepLog.inWindow(0, clock.t + 1)).filter((s) => s.kind === 'tool_call')).toEqual([]);
  });

  it('refuses a model call with too many messages', async () => {
    const { afr } = setupRecorder();
    const messages = Array.from({ length: 201 }, () => ({ role: 'user', content: 'hi' }));
    await expect(afr.modelCall({ model: 'm', messages })).rejects.toThrow(/afr\.modelCall: messages/);
  });

  it('cannot be posted by a page: an agent command of that kind is dropped', async () => {
    const { recorder, ports, clock, log } = setupRecorder();
    await recorder.start();
    await recorder.handleMessage({ type: 'agent/command', ts: clock.t, url: 'https://shop.test/', command: { kind: 'toolCall', tool: 'x', status: 'ok' } }, origin);
    expect((await ports.stepLog.inWindow(0, clock.t + 1)).filter((s) => s.kind === 'tool_call')).toEqual([]);
    expect(log).toHaveBeenCalled();
  });

  it('are held in the steps bounded window: evicted with the steps past its age', async () => {
    const { afr, ports, clock } = setupRecorder();
    await afr.toolCall({ tabId: 7, tool: 'old', status: 'ok' });
    clock.t += 10 * 60_000;
    await afr.toolCall({ tabId: 7, tool: 'new', status: 'ok' });
    const calls = (await ports.stepLog.inWindow(0, clock.t + 1)).filter((s) => s.kind === 'tool_call');
    expect(calls.map((s) => s.action)).toEqual(['tool new']);
  });

  it('make a failed or timed-out tool call a tool_error signal: recorded by default, a bundle when set to trigger', async () => {
    const { afr, ports, clock } = setupRecorder();
    await afr.runStart({ tabId: 7 });
    clock.t += 10;
    await afr.toolCall({ tabId: 7, tool: 'pay', status: 'error', error: 'card declined', latencyMs: 50 });
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => [s.action, s.detail?.signal_kind, s.label])).toEqual([['signal: tool_error', 'tool_error', 'pay error: card declined']]);
    expect(await afr.listBundles()).toEqual([]);

    // A patch of one rule's field, as the API takes it (its type asks for whole settings).
    await afr.configure({ signals: { tool_error: { action: 'trigger' } } } as never);
    clock.t += 10;
    await afr.toolCall({ tabId: 7, tool: 'pay', status: 'timeout', latencyMs: 31_000 });
    const bundles = await afr.listBundles();
    expect(bundles.map((b) => b.reason)).toEqual(['tool_error']);
    const slow = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.detail?.signal_kind === 'tool_latency');
    expect(slow).toHaveLength(1);
  });

  it('flag the agent\'s steps without a tool call, once it has made one', async () => {
    const { afr, ports, clock } = setupRecorder();
    await afr.configure({ signals: { no_tool_calls: { steps: 2 } } } as never);
    const noCalls = async () => (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.detail?.signal_kind === 'no_tool_calls').length;
    for (const action of ['a', 'b', 'c']) {
      clock.t += 10;
      await afr.step({ tabId: 7, action });
    }
    expect(await noCalls()).toBe(0);
    await afr.toolCall({ tabId: 7, tool: 'search', status: 'ok' });
    for (const action of ['d', 'e', 'f']) {
      clock.t += 10;
      await afr.step({ tabId: 7, action });
    }
    expect(await noCalls()).toBe(1);
  });
});
