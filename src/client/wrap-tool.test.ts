import { describe, expect, it } from 'vitest';
import { connectRecorder } from './connect';
import { fakeAfr, FakeContext, FakeWorker, recorderUrl } from '../../test/fakes/client';

async function connected() {
  const afr = fakeAfr();
  const context = new FakeContext();
  context.addWorker(new FakeWorker(recorderUrl(), afr));
  return { afr, rec: await connectRecorder(context, { timeoutMs: 1_000 }) };
}

type Call = { tool: string; input?: unknown; output?: unknown; status: string; latencyMs: number; error?: string };
const toolCalls = (afr: ReturnType<typeof fakeAfr>) => afr.calls.filter(([m]) => m === 'toolCall').map(([, args]) => args[0] as Call);

describe('rec.toolCall, rec.modelCall and rec.wrapTool', () => {
  it('pass the calls to afr', async () => {
    const { rec, afr } = await connected();
    await rec.modelCall({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tokensIn: 3 });
    await rec.toolCall({ tool: 'search', input: { q: 'x' }, status: 'ok' });
    expect(afr.calls).toEqual([
      ['modelCall', [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tokensIn: 3 }]],
      ['toolCall', [{ tool: 'search', input: { q: 'x' }, status: 'ok' }]],
    ]);
  });

  it('record each call of a wrapped function: its input, output and latency, or its error, thrown on', async () => {
    const { rec, afr } = await connected();
    const search = rec.wrapTool('search', async (q: string) => ({ hits: q.length }));
    const add = rec.wrapTool('add', (a: number, b: number) => a + b, { tabId: 4 });
    const broken = rec.wrapTool('pay', async () => {
      throw new Error('card declined');
    });
    const slow = rec.wrapTool('fetch', async () => {
      throw Object.assign(new Error('took too long'), { name: 'TimeoutError' });
    });
    expect(await search('shoes')).toEqual({ hits: 5 });
    expect(await add(2, 3)).toBe(5);
    await expect(broken()).rejects.toThrow('card declined');
    await expect(slow()).rejects.toThrow('took too long');
    const calls = toolCalls(afr);
    expect(calls.map(({ latencyMs: _l, ...c }) => c)).toEqual([
      { tool: 'search', input: 'shoes', output: { hits: 5 }, status: 'ok' },
      { tabId: 4, tool: 'add', input: [2, 3], output: 5, status: 'ok' },
      { tool: 'pay', input: [], status: 'error', error: 'Error: card declined' },
      { tool: 'fetch', input: [], status: 'timeout', error: 'TimeoutError: took too long' },
    ]);
    for (const c of calls) expect(c.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('never break the tool when the recorder refuses the call', async () => {
    const { rec } = await connected();
    const refused: unknown[] = [];
    const tool = rec.wrapTool('odd', async () => ({ refuse: true }), { onRecordError: (e) => refused.push(e) });
    expect(await tool()).toEqual({ refuse: true });
    expect(refused).toHaveLength(1);
  });
});
