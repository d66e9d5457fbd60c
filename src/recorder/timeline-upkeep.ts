import type { Settings } from '../../schemas/settings';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';

/**
 * The worker's keeping of the tabs' DOM timelines across start-ups and settings: what an earlier
 * worker kept is loaded, pages recorded under other redaction rules are dropped, the limits follow
 * the settings. A storage failure is logged: it loses the timeline, never the recorder's start.
 */
export class TimelineUpkeep {
  /** The redaction rules the timeline kept was recorded under (null: none seen yet). */
  private rules: string | null = null;

  constructor(
    private readonly timeline: Pick<TimelineKeeper, 'load' | 'clear' | 'applyLimits'> | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** What an earlier worker kept of the DOM timeline. */
  async load(): Promise<void> {
    await this.timeline?.load().catch((error: unknown) => this.log(`[afr] DOM timeline not loaded: ${String(error)}`));
  }

  /** Whether the timeline kept was recorded under other redaction rules than `settings`' (none seen yet: no). */
  recordedUnderOtherRules(settings: Pick<Settings, 'redaction'>): boolean {
    return this.rules !== null && this.rules !== JSON.stringify(settings.redaction);
  }

  /** The redaction rules the timeline is recorded under from now on. */
  recordUnder(settings: Pick<Settings, 'redaction'>): void {
    this.rules = JSON.stringify(settings.redaction);
  }

  /** Drops the timeline kept: a page records afresh. */
  clear(): Promise<void> | undefined {
    return this.timeline?.clear().catch((error: unknown) => this.log(`[afr] DOM timeline not cleared: ${String(error)}`));
  }

  /** The window and byte cap of the settings in force. */
  applyLimits(): Promise<void> | undefined {
    return this.timeline?.applyLimits().catch((error: unknown) => this.log(`[afr] DOM timeline limits not applied: ${String(error)}`));
  }
}
