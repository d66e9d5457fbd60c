import { describe, expect, it } from 'vitest';
import { AgentCommandSchema, AGENT_LIMITS } from '../../schemas/agent';
import { compileRedactionRules } from './custom-rules';
import { maskCommand } from './mask-command';
import { BUILT_IN_MASKER, createTextMasker } from './mask-text';

describe('maskCommand', () => {
  it('masks personal data in free text and leaves the rest as it was', () => {
    const masked = maskCommand({ kind: 'assert', label: 'mail sent to jane.doe@example.com', passed: false, expected: 'ok' }, BUILT_IN_MASKER);
    expect(masked).toMatchObject({ kind: 'assert', passed: false, expected: 'ok' });
    expect(masked.label).not.toContain('jane.doe@example.com');
  });

  it('keeps each field within its own cap when masking makes its text longer', () => {
    // Each order number (8 characters) becomes a longer `[redacted]`-style mark.
    const masker = createTextMasker(compileRedactionRules({ selectors: [], fieldNamePatterns: [], textPatterns: ['ORD-\\d+'] }, () => true).rules);
    const orders = Array.from({ length: 120 }, (_, i) => `ORD-${String(1000 + i)}`).join(' ').slice(0, AGENT_LIMITS.labelChars);
    const masked = maskCommand({ kind: 'mark', label: orders, reasoning: orders }, masker);
    expect(masked.label!.length).toBeLessThanOrEqual(AGENT_LIMITS.labelChars);
    expect(masked.label).not.toMatch(/ORD-\d{4}/);
    expect(AgentCommandSchema.safeParse(masked).success).toBe(true);
    const failed = maskCommand({ kind: 'fail', reason: orders.slice(0, AGENT_LIMITS.reasonChars), label: orders }, masker);
    expect(AgentCommandSchema.safeParse(failed).success).toBe(true);
  });
});
