import { describe, expect, it } from 'vitest';
// Only zod mini modules, as in a content script: no classic zod in this file's module graph.
import { apiInputSchema } from './agent';
import { ToContentMessageSchema } from './content-messages';
import { PageMessageSchema } from './page-protocol';

// The schemas content scripts parse with are zod mini (zod-mini.ts): same rules and the same English
// messages as classic zod's, which a person reading a rejection needs.
describe('zod mini schemas', () => {
  it('reject with messages that name what is wrong', () => {
    const tooLong = apiInputSchema('mark').safeParse({ label: 'x'.repeat(2000) });
    expect(tooLong.error?.issues[0]).toMatchObject({ path: ['label'], message: 'Too big: expected string to have <=1024 characters' });
    const badRunId = apiInputSchema('runStart').safeParse({ runId: 'run 1' });
    expect(badRunId.error?.issues[0]?.message).toBe('letters, digits, _ . : - only');
    const step = PageMessageSchema.safeParse({ source: 'agent-flight-recorder', type: 'step', action: 'a'.repeat(10_000), target: 'b'.repeat(10_000) });
    expect(step.error?.issues[0]?.message).toBe('step exceeds 16384 characters in total');
    const badRule = ToContentMessageSchema.safeParse({ type: 'redaction/preview', rules: { selectors: [], fieldNamePatterns: ['('], textPatterns: [] } });
    expect(badRule.error?.issues[0]).toMatchObject({ path: ['rules', 'fieldNamePatterns', 0], message: 'not a valid regular expression' });
    expect(PageMessageSchema.safeParse({ source: 'agent-flight-recorder', type: 'fail', reason: 'x', extra: 1 }).error?.issues[0]?.message).toMatch(/^Unrecognized key/);
  });
});
