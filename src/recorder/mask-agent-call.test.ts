import { describe, expect, it } from 'vitest';
import { BUILT_IN_MASKER, createTextMasker } from '../redact/mask-text';
import { compileRedactionRules } from '../redact/custom-rules';
import { maskModelCall, maskToolCall } from './mask-agent-call';

const OPENAI_KEY = `sk-proj-${'Ab3dE5fG7h'.repeat(5)}`;
const GITHUB_TOKEN = `ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}`;

describe('maskToolCall', () => {
  it('withholds values under secret keys at any depth and masks every other string and key', () => {
    const call = maskToolCall(
      {
        tool: 'http_get',
        input: { url: 'https://api.test/v1', headers: { Authorization: `Bearer ${OPENAI_KEY}` }, nested: [{ config: { api_key: 'plain-looking' } }], note: `contact ana@example.com` },
        output: { body: [{ log: `token ${GITHUB_TOKEN} rejected` }], count: 2, ok: false },
        status: 'error',
        latencyMs: 120,
        error: `401 for ${OPENAI_KEY}`,
      },
      BUILT_IN_MASKER,
      4,
    );
    const text = JSON.stringify(call);
    for (const secret of [OPENAI_KEY, GITHUB_TOKEN, 'plain-looking', 'ana@example.com']) expect(text).not.toContain(secret);
    expect(call).toMatchObject({
      type: 'tool',
      step_seq: 4,
      tool: 'http_get',
      status: 'error',
      latency_ms: 120,
      input: { url: 'https://api.test/v1', headers: { Authorization: '[redacted 32+]' }, nested: [{ config: { api_key: '[redacted 8+]' } }], note: 'contact [email]' },
      output: { count: 2, ok: false },
    });
    expect(call.type === 'tool' && call.error).toMatch(/^401 for \[credential\]/);
  });

  it('applies the custom patterns of the settings in force', () => {
    const masker = createTextMasker(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['ACCT-\\d{6}'] }, () => true).rules);
    const call = maskToolCall({ tool: 'lookup ACCT-123456', input: ['ACCT-654321'], status: 'ok' }, masker, null);
    expect(JSON.stringify(call)).not.toMatch(/ACCT-\d/);
  });

  it('keeps an absent input or output absent', () => {
    const call = maskToolCall({ tool: 'noop', status: 'skipped' }, BUILT_IN_MASKER, null);
    expect(call).toEqual({ type: 'tool', step_seq: null, tool: 'noop', status: 'skipped', latency_ms: null, error: null });
  });
});

describe('maskModelCall', () => {
  it('masks every message and the response, keeps the figures', () => {
    const call = maskModelCall(
      {
        model: 'gpt-4o',
        messages: [{ role: 'system', content: 'You shop.' }, { role: 'user', content: 'Mail the receipt to ana@example.com' }],
        response: { tool_calls: [{ name: 'send', arguments: { to: 'ana@example.com', password: 'hunter2' } }] },
        tokensIn: 812,
        tokensOut: 40,
        temperature: 0.2,
        maxTokens: 1024,
        costUsd: 0.0031,
      },
      BUILT_IN_MASKER,
      2,
    );
    const text = JSON.stringify(call);
    expect(text).not.toContain('ana@example.com');
    expect(text).not.toContain('hunter2');
    expect(call).toMatchObject({ type: 'model', model: 'gpt-4o', tokens_in: 812, tokens_out: 40, temperature: 0.2, max_tokens: 1024, cost_usd: 0.0031, step_seq: 2 });
    expect(call.type === 'model' && call.messages[1]).toEqual({ role: 'user', content: 'Mail the receipt to [email]' });
  });
});
