import type { AgentCommand } from '../../schemas/agent';
import { AGENT_LIMITS } from '../../schemas/agent';
import { maskAndCap } from './mask-text';
import { createTextMaskCounts } from './redaction-counts';

/** Free-text fields of agent commands: masked like page text wherever a command comes from. */
const TEXT_FIELDS = ['action', 'target', 'label', 'goal', 'reasoning', 'expected', 'actual', 'task', 'reason'] as const;

/** Masks personal data in every free-text field of an agent command (ids, booleans and enums pass). */
export function maskCommand<T extends AgentCommand>(command: T): T {
  const out: Record<string, unknown> = { ...command };
  for (const key of TEXT_FIELDS) {
    const value = out[key];
    if (typeof value === 'string') {
      out[key] = maskAndCap(value, key === 'reason' ? AGENT_LIMITS.reasonChars : AGENT_LIMITS.textChars, createTextMaskCounts());
    }
  }
  return out as T;
}
