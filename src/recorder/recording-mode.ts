import type { Settings } from '../../schemas/settings';
import type { KeyValueStore, SettingsStore } from '../settings/settings-store';

const PAUSED_KEY = 'paused';

/**
 * The settings in force and the operator's pause, which every part of the recorder reads. The pause
 * is kept in session storage so that it survives service worker restarts.
 */
export class RecordingMode {
  private pausedNow = false;

  constructor(
    private readonly settingsStore: SettingsStore,
    private readonly sessionStore: KeyValueStore,
  ) {}

  get settings(): Settings {
    return this.settingsStore.get();
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  /** Steps and signals go on the timeline: a capture level above `off`, and no pause. */
  get recordsTimeline(): boolean {
    return this.settings.captureLevel !== 'off' && !this.pausedNow;
  }

  async loadPause(): Promise<void> {
    this.pausedNow = (await this.sessionStore.get(PAUSED_KEY)) === true;
  }

  async setPaused(paused: boolean): Promise<void> {
    this.pausedNow = paused;
    await this.sessionStore.set(PAUSED_KEY, paused);
  }
}
