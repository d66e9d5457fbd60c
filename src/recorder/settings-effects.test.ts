import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { applySettings, type SettingsTargets } from './settings-effects';
import { ringLimits, stepLogLimits } from './store-limits';

function targets(stale: boolean) {
  const calls: string[] = [];
  const note = (name: string) => vi.fn(async () => void calls.push(name));
  const parts = {
    timeline: {
      recordedUnderOtherRules: vi.fn(() => stale),
      clear: note('timeline cleared'),
      recordUnder: vi.fn(() => void calls.push('timeline rules')),
      applyLimits: note('timeline limits'),
    },
    failures: { setCooldown: vi.fn((ms: number) => void calls.push(`cooldown ${ms}`)) },
    scope: { refresh: vi.fn(() => void calls.push('scope')) },
    frames: { apply: note('frames') },
    ring: { setLimits: note('ring') },
    stepLog: { setLimits: note('steps') },
  } satisfies SettingsTargets;
  return { parts, calls };
}

describe('applySettings', () => {
  it.each([
    { stale: true, want: ['timeline cleared', 'timeline rules', 'cooldown 4000', 'scope', 'frames', 'ring', 'steps', 'timeline limits', 'applied'] },
    { stale: false, want: ['timeline rules', 'cooldown 4000', 'scope', 'frames', 'ring', 'steps', 'timeline limits', 'applied'] },
  ])('drops a timeline of other redaction rules (stale $stale) first, then brings every part to the settings', async ({ stale, want }) => {
    const { parts, calls } = targets(stale);
    const settings = { ...DEFAULT_SETTINGS, failureCooldownMs: 4_000 };
    await applySettings(parts, settings, true, () => calls.push('applied'));
    expect(calls).toEqual(want);
    expect(parts.frames.apply).toHaveBeenCalledWith(settings, true);
    expect(parts.ring.setLimits).toHaveBeenCalledWith(ringLimits(settings));
    expect(parts.stepLog.setLimits).toHaveBeenCalledWith(stepLogLimits(settings));
  });
});
