import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { bundleSchemaFileNames } from '../cli/bundle-json-schemas';
import { validateBundle } from '../cli/validate-bundle';
import { setupRecorder } from '../../test/fakes/recorder';

const OPENAI_KEY = `sk-proj-${'Ab3dE5fG7h'.repeat(5)}`;
const GITHUB_TOKEN = `ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}`;
const EMAIL = 'ana.lima@example.com';

const rendered = renderJsonSchemas();
const schemas = Object.fromEntries(Object.entries(bundleSchemaFileNames()).map(([file, name]) => [file, JSON.parse(rendered[name] ?? '{}') as object]));

describe('a bundle with the agent calls', () => {
  it('holds agent.json, steps pointing into it, the totals and the last failing tool call, and no secret', async () => {
    const { afr, ports, clock } = setupRecorder();
    await afr.runStart({ tabId: 7, runId: 'run-calls', agent: 'shopper', agentVersion: '1.2.0' });
    clock.t += 100;
    await afr.step({ tabId: 7, action: 'find shoes' });
    clock.t += 100;
    await afr.modelCall({ tabId: 7, model: 'gpt-4o', messages: [{ role: 'user', content: `Mail ${EMAIL} the order` }], response: 'search', tokensIn: 800, tokensOut: 40, costUsd: 0.002, temperature: 0.1, maxTokens: 512 });
    clock.t += 100;
    await afr.toolCall({ tabId: 7, tool: 'search', input: { q: 'shoes', key: OPENAI_KEY }, output: { hits: 2 }, status: 'ok', latencyMs: 30 });
    clock.t += 100;
    await afr.toolCall({ tabId: 7, tool: 'checkout', output: { log: `used ${GITHUB_TOKEN}` }, status: 'timeout', latencyMs: 30_000, error: 'no answer in 30 s' });
    clock.t += 100;
    const id = await afr.fail({ tabId: 7, reason: 'checkout_stuck' });
    const bytes = (await ports.bundles.read(id))!;
    const zip = await JSZip.loadAsync(bytes);
    const read = async (name: string) => (await zip.file(name)!.async('string'));
    const agent = JSON.parse(await read('agent.json'));
    const steps = JSON.parse(await read('steps.json')).steps as { kind: string; call?: { id: string; list: string }; agent_call?: unknown; seq: number }[];
    const diagnostics = JSON.parse(await read('diagnostics.json'));
    const manifest = JSON.parse(await read('manifest.json'));

    expect(agent.model_calls).toHaveLength(1);
    expect(agent.tool_calls.map((c: { tool: string; status: string }) => [c.tool, c.status])).toEqual([['search', 'ok'], ['checkout', 'timeout']]);
    const agentStep = steps.find((s) => s.kind === 'agent')!;
    expect(agent.tool_calls[0]).toMatchObject({ run_id: 'run-calls', step_seq: agentStep.seq, tab_id: 7, latency_ms: 30 });
    const callSteps = steps.filter((s) => s.call);
    expect(callSteps.map((s) => [s.kind, s.call!.list, s.call!.id])).toEqual([
      ['model_call', 'model_calls', agent.model_calls[0].id],
      ['tool_call', 'tool_calls', agent.tool_calls[0].id],
      ['tool_call', 'tool_calls', agent.tool_calls[1].id],
    ]);
    expect(steps.some((s) => 'agent_call' in s)).toBe(false);
    expect(diagnostics.agent_calls).toEqual({ model_calls: 1, tool_calls: 2, failed_tool_calls: 1, tokens_in: 800, tokens_out: 40, cost_usd: 0.002 });
    expect(manifest.artifacts.map((a: { name: string }) => a.name)).toContain('agent.json');
    expect(await read('summary.md')).toMatch(/\*\*Last failing tool call:\*\* #\d+ `checkout` timeout after 30000 ms: `no answer in 30 s`/);

    const all = (await Promise.all(Object.values(zip.files).map((f) => f.async('string')))).join('\n');
    for (const secret of [OPENAI_KEY, GITHUB_TOKEN, EMAIL]) expect(all).not.toContain(secret);
    expect((await validateBundle(bytes, schemas, async () => ({ version: '0.1.0', script: '' }))).problems).toEqual([]);
  }, 20_000);

  it('has no agent.json when the window holds no call', async () => {
    const { afr, ports } = setupRecorder();
    const id = await afr.fail({ tabId: 7, reason: 'plain' });
    const zip = await JSZip.loadAsync((await ports.bundles.read(id))!);
    expect(zip.file('agent.json')).toBeNull();
  });
});
