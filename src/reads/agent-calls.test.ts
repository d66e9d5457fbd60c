import { describe, expect, it } from 'vitest';
import type { AgentFile } from '../../schemas/agent-calls';
import type { Step } from '../../schemas/steps';
import { BUNDLE_ID, STEPS, T0, bundleContents, makeBundle } from '../../test/fixtures/cli/make-bundle';
import { openBundle } from './open-bundle';
import { stepText, type Asker } from './render-text';
import { readStep } from './steps';

const ask: Asker = (read, args) => `${read} ${JSON.stringify(args)}`;

const toolStep: Step = {
  ...STEPS[10]!,
  ts: T0 - 800,
  seq: 13,
  source: 'agent',
  kind: 'tool_call',
  action: 'tool search',
  target: null,
  outcome: 'fail',
  label: 'timeout',
  detail: { run_id: 'run-1', call_status: 'timeout', duration_ms: 3000 },
  call: { file: 'agent.json', list: 'tool_calls', id: 'tool-13' },
};
const agent: AgentFile = {
  version: 1,
  bundle_id: BUNDLE_ID,
  model_calls: [],
  tool_calls: [{ id: 'tool-13', seq: 13, step_seq: 8, run_id: 'run-1', tab_id: 1, ts: T0 - 800, tool: 'search', input: { q: 'red\nshoes', key: '[redacted 32+]' }, output: { hits: [1, 2] }, status: 'timeout', latency_ms: 3000, error: 'no answer' }],
};

describe('a step of a tool call', () => {
  it('shows the call agent.json holds, its input and output pretty-printed', async () => {
    const steps = [...STEPS.slice(0, 11), toolStep, STEPS[11]!];
    const base = bundleContents();
    const zip = await makeBundle({ steps: { ...base.steps, steps }, agent, manifest: { ...base.manifest, step_count: steps.length } });
    const view = await readStep(await openBundle(zip), 12);
    expect(view.call).toMatchObject({ id: 'tool-13', tool: 'search', status: 'timeout', input: { q: 'red\nshoes' } });
    const text = stepText(view, ask);
    expect(text).toContain('  call: id="tool-13" tool="search" status="timeout" latency_ms=3000 error="no answer" step_seq=8 run_id="run-1" tab_id=1');
    expect(text.slice(text.indexOf('  input:'), text.indexOf('  input:') + 5)).toEqual(['  input:', '    {', '      "q": "red\\nshoes",', '      "key": "[redacted 32+]"', '    }']);
    expect((await readStep(await openBundle(zip), 11)).call).toBeNull();
  });
});
