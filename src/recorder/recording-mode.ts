import { captureLevelAtLeast } from '../../schemas/capture-level';
import type { Settings } from '../../schemas/settings';
import { compileRedactionRules } from '../redact/custom-rules';
import { createTextMasker, type TextMasker } from '../redact/mask-text';
import type { KeyValueStore, SettingsStore } from '../settings/settings-store';

const PAUSED_KEY = 'paused';

/**
 * The settings in force and the operator's pause, which every part of the recorder reads. The pause
 * is kept in session storage so that it survives service worker restarts.
 */
export class RecordingMode {
  private pausedNow = false;
  private maskerOf: { rules: Settings['redaction']; masker: TextMasker } | null = null;

  constructor(
    private readonly settingsStore: SettingsStore,
    private readonly sessionStore: KeyValueStore,
  ) {}

  get settings(): Settings {
    return this.settingsStore.get();
  }

  /**
   * The masker of the settings in force: the built-in detectors and the custom text patterns, as the
   * content script applies them to page text. Rebuilt when the redaction rules change (every
   * settings change gives new rules; selectors do not apply here, the worker has no DOM).
   */
  get masker(): TextMasker {
    const rules = this.settings.redaction;
    if (this.maskerOf?.rules !== rules) this.maskerOf = { rules, masker: createTextMasker(compileRedactionRules(rules, () => true).rules) };
    return this.maskerOf.masker;
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  /** Steps and signals go on the timeline: a capture level above `off`, and no pause. */
  get recordsTimeline(): boolean {
    return this.settings.captureLevel !== 'off' && !this.pausedNow;
  }

  /** The page's DOM is recorded as a timeline: capture level `trace` and up, and no pause. */
  get recordsDom(): boolean {
    return captureLevelAtLeast(this.settings.captureLevel, 'trace') && !this.pausedNow;
  }

  async loadPause(): Promise<void> {
    this.pausedNow = (await this.sessionStore.get(PAUSED_KEY)) === true;
  }

  async setPaused(paused: boolean): Promise<void> {
    this.pausedNow = paused;
    await this.sessionStore.set(PAUSED_KEY, paused);
  }
}
