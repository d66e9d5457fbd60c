import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { ROOT_DIR } from './support/launch';
import { ReplayFixtureSchema } from '../schemas/replay-fixture';
import { AgentFileSchema } from '../schemas/agent-calls';

/*
 * The agent's model and tool calls (`afr.modelCall`, `afr.toolCall`) in a real recorder's bundle: a
 * prompt with an email, a tool call whose input holds an API key, one that times out with a GitHub
 * token in its output, then a failure. One browser for the file.
 */

const token = (n: number, seed: number) => {
  const chars = 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vW0xYzCq';
  let out = '';
  for (let i = 0; i < n; i++) out += chars[(i * seed + seed * 7 + 3) % chars.length];
  return out;
};
const PLANTED = {
  email: 'marta.okafor@example.org',
  openAiKey: `sk-proj-${token(48, 3)}`,
  githubToken: `ghp_${token(36, 6)}`,
} as const;

const run = promisify(execFile);
const afrCli = (...args: string[]) => run(process.execPath, [path.join(ROOT_DIR, 'bin/afr.mjs'), ...args], { encoding: 'utf8', cwd: ROOT_DIR });

test('the calls are on the timeline and in agent.json, masked, and afr fixture replays them', async ({ recorder, site, tempDir }) => {
  test.setTimeout(120_000);
  const { worker, context } = recorder;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${site.origin}/`);
  await waitForFrames(worker, 1);

  await afr(worker, 'runStart', { runId: 'run-agent-calls', agent: 'shop-agent', agentVersion: '3.1.0', task: 'order shoes' });
  await afr(worker, 'step', { action: 'plan the order' });
  const p = PLANTED;
  await afr(worker, 'modelCall', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'You shop for the user.' }, { role: 'user', content: `Order shoes and mail the receipt to ${p.email}` }],
      response: { tool: 'search', args: { q: 'shoes' } },
      tokensIn: 812,
      tokensOut: 40,
      latencyMs: 900,
      temperature: 0.2,
      maxTokens: 1024,
      costUsd: 0.0012,
  });
  await afr(worker, 'toolCall', { tool: 'search', input: { q: 'shoes', api_key: p.openAiKey, note: `key ${p.openAiKey}` }, output: { hits: 3 }, status: 'ok', latencyMs: 120 });
  await afr(worker, 'toolCall', { tool: 'checkout', input: { cart: 'c-1' }, output: { log: `retrying with ${p.githubToken}` }, status: 'timeout', latencyMs: 30_000, error: `no answer (auth ${p.githubToken})` });
  // Agent only: a page cannot post a call.
  await page.evaluate(() => window.postMessage({ source: 'agent-flight-recorder', type: 'toolCall', tool: 'forged', status: 'error' }, '*'));
  const id = await afr(worker, 'fail', { reason: 'checkout_stuck', label: 'no confirmation' });

  const bundle = await exportBundle(worker, id);
  expect(findSecrets(bundle, Object.values(PLANTED))).toEqual([]);
  const agent = AgentFileSchema.parse(JSON.parse(bundle.files.get('agent.json')!.toString('utf8')));
  expect(bundle.manifest.artifacts.map((a) => a.name)).toContain('agent.json');
  expect(agent.model_calls).toHaveLength(1);
  expect(agent.model_calls[0]!.messages[1]!.content).toBe('Order shoes and mail the receipt to [email]');
  expect(agent.tool_calls.map((c) => [c.tool, c.status])).toEqual([['search', 'ok'], ['checkout', 'timeout']]);
  expect(agent.tool_calls[0]!.input).toMatchObject({ q: 'shoes', api_key: expect.stringMatching(/^\[redacted/) });
  const planStep = bundle.steps.steps.find((s) => s.action === 'plan the order')!;
  for (const call of [...agent.model_calls, ...agent.tool_calls]) expect(call).toMatchObject({ run_id: 'run-agent-calls', step_seq: planStep.seq });
  const callSteps = bundle.steps.steps.filter((s) => s.kind === 'tool_call' || s.kind === 'model_call');
  expect(callSteps.map((s) => s.call?.id)).toEqual([agent.model_calls[0]!.id, ...agent.tool_calls.map((c) => c.id)]);
  expect(bundle.steps.steps.some((s) => s.action.includes('forged'))).toBe(false);
  // The timeout is a tool_error signal on the timeline (recorded by default).
  expect(bundle.steps.steps.some((s) => s.kind === 'signal' && s.detail?.signal_kind === 'tool_error')).toBe(true);
  expect(bundle.diagnostics.agent_calls).toEqual({ model_calls: 1, tool_calls: 2, failed_tool_calls: 1, tokens_in: 812, tokens_out: 40, cost_usd: 0.0012 });
  expect(bundle.files.get('summary.md')!.toString('utf8')).toMatch(/\*\*Last failing tool call:\*\* #\d+ `checkout` timeout after 30000 ms/);

  // The command line: validate, the call's step, and the replay fixture.
  const dir = tempDir();
  const zipPath = path.join(dir, 'bundle.zip');
  writeFileSync(zipPath, bundle.zip);
  expect((await afrCli('validate', zipPath)).stdout).toMatch(/^valid: /);
  const stepIndex = bundle.steps.steps.findIndex((s) => s.kind === 'tool_call' && s.detail?.call_status === 'timeout') + 1;
  const step = (await afrCli('step', zipPath, String(stepIndex))).stdout;
  expect(step).toContain('call: id="');
  expect(step).toContain('  output:');
  const fixturePath = path.join(dir, 'fixture.json');
  expect((await afrCli('fixture', zipPath, '--out', fixturePath)).stdout).toMatch(/^wrote .*fixture\.json: agent_fail_\d{8}_\d{6}, 3 messages, 2 tool calls \(1 failed\), failure tool_timeout/);
  const fixtureText = readFileSync(fixturePath, 'utf8');
  for (const secret of Object.values(PLANTED)) expect(fixtureText).not.toContain(secret);
  const fixture = ReplayFixtureSchema.parse(JSON.parse(fixtureText));
  expect(fixture).toMatchObject({
    session_id: 'run-agent-calls',
    agent_version: '3.1.0',
    context_env: { model: 'gpt-4o-mini', temperature: 0.2, max_tokens: 1024 },
    failure_type: 'tool_timeout',
    failure_reason: 'checkout_stuck',
  });
  expect(fixture.tool_history.map((t) => [t.tool, t.status])).toEqual([['search', 'ok'], ['checkout', 'soft_fail']]);
  for (const t of fixture.tool_history) {
    expect(t.args_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(t.result_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  }
});
