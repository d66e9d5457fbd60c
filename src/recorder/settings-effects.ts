import type { Settings } from '../../schemas/settings';
import { ringLimits, stepLogLimits } from './store-limits';
import type { TimelineUpkeep } from './timeline-upkeep';

/** The parts a change of the settings (or of the pause) reaches. */
export interface SettingsTargets {
  timeline: Pick<TimelineUpkeep, 'recordedUnderOtherRules' | 'recordUnder' | 'clear' | 'applyLimits'>;
  failures: { setCooldown(ms: number): void };
  scope: { refresh(): void };
  frames: { apply(settings: Settings, paused: boolean): Promise<void> };
  ring: { setLimits(limits: ReturnType<typeof ringLimits>): Promise<unknown> };
  stepLog: { setLimits(limits: ReturnType<typeof stepLogLimits>): Promise<void> };
}

/**
 * Brings every part to the settings in force and the pause: the DOM timeline recorded under other
 * redaction rules goes first (a page records afresh under the new ones), then the cooldown, the
 * scope, the capture and the stores' limits. `applied` is called once they all are.
 */
export async function applySettings(parts: SettingsTargets, settings: Settings, paused: boolean, applied: () => void): Promise<void> {
  if (parts.timeline.recordedUnderOtherRules(settings)) await parts.timeline.clear();
  parts.timeline.recordUnder(settings);
  parts.failures.setCooldown(settings.failureCooldownMs);
  // A scope or allow-list changed: tabs enter or leave it.
  parts.scope.refresh();
  // Frames are taken from `screenshots` up; a level raised mid-run starts the capture at once.
  await Promise.all([parts.frames.apply(settings, paused), parts.ring.setLimits(ringLimits(settings)), parts.stepLog.setLimits(stepLogLimits(settings)), parts.timeline.applyLimits()]);
  applied();
}
