import type { AgentCommand } from '../../schemas/agent';
import { AGENT_LIMITS } from '../../schemas/agent';
import type { TextMasker } from './mask-text';
import { createTextMaskCounts } from './redaction-counts';

/** Free-text fields of agent commands: masked like page text wherever a command comes from. */
const TEXT_FIELDS = ['action', 'target', 'label', 'goal', 'reasoning', 'expected', 'actual', 'task', 'reason'] as const;

/** The most characters a field may have (as its schema says): masking may lengthen text (`[redacted]`). */
const capOf = (key: (typeof TEXT_FIELDS)[number]) =>
  key === 'reason' ? AGENT_LIMITS.reasonChars : key === 'label' ? AGENT_LIMITS.labelChars : AGENT_LIMITS.textChars;

/** Masks secrets in every free-text field of an agent command (ids, booleans and enums pass), within the field's cap. */
export function maskCommand<T extends AgentCommand>(command: T, masker: TextMasker): T {
  const out: Record<string, unknown> = { ...command };
  for (const key of TEXT_FIELDS) {
    const value = out[key];
    if (typeof value === 'string') out[key] = masker.maskAndCap(value, capOf(key), createTextMaskCounts());
  }
  return out as T;
}
