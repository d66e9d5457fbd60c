import { describeZodError } from '../shared/zod-error';
import { DEFAULT_SETTINGS, SettingsPatchSchema, SettingsSchema, type Settings, type SettingsPatch } from '../../schemas/settings';
import type { SignalRules, SignalRulesPatch } from '../../schemas/signals';
import { keepMaskedSecrets, maskedUploadSettings } from '../../schemas/upload';
import { migrateStoredSettings, SETTINGS_KEY, wrapSettings } from './migrations';
import { managedKeysIn, managedRefusal, NO_MANAGED_SETTINGS, parseManagedSettings, type ManagedSettings } from './managed-settings';

export { SETTINGS_KEY };

/** Key-value persistence (`chrome.storage.local` in production). */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** A rejected settings change, with a message naming each bad field. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** Applies a rule-by-rule, field-by-field change to the signal rules. */
export function mergeSignalRules(current: SignalRules, patch: SignalRulesPatch | undefined): SignalRules {
  if (!patch) return current;
  const merged = { ...current };
  for (const kind of Object.keys(patch) as (keyof SignalRules)[]) merged[kind] = { ...current[kind], ...patch[kind] };
  return merged;
}

/** `settings` with a validated change applied (signal rules merged field by field). */
function applyPatch(settings: Settings, patch: SettingsPatch): Settings {
  const { signals, upload, ...rest } = patch;
  return SettingsSchema.parse({
    ...settings,
    ...rest,
    signals: mergeSignalRules(settings.signals, signals),
    upload: upload ? keepMaskedSecrets(upload, settings.upload) : settings.upload,
  });
}

/** The settings as every read-back shows them (the options page, `afr.getSettings()`): the upload's secrets masked. */
export function settingsForReadBack(settings: Settings): Settings {
  return { ...settings, upload: maskedUploadSettings(settings.upload) };
}

/** Enterprise policy for the extension (`chrome.storage.managed` in production). */
export interface PolicySource {
  /** The policy's values; `{}` where none is set. */
  read(): Promise<unknown>;
}

/**
 * Loads, validates and persists the recorder settings. Settings set by enterprise policy win over the
 * user's: `get()` has them, and `update()` refuses to change them.
 */
export class SettingsStore {
  private current: Settings = DEFAULT_SETTINGS;
  /** The user's own settings, under the policy's. */
  private local: Settings = DEFAULT_SETTINGS;
  private managed: ManagedSettings = NO_MANAGED_SETTINGS;
  private readonly listeners = new Set<(settings: Settings) => void>();

  constructor(
    private readonly storage: KeyValueStore,
    private readonly log: (message: string) => void = console.warn,
    private readonly policy: PolicySource | null = null,
  ) {}

  /**
   * Reads stored settings, migrating older versions; anything invalid falls back to the defaults,
   * field by field, with a warning.
   */
  async load(): Promise<Settings> {
    this.local = await this.loadLocal();
    this.managed = await this.readPolicy();
    return (this.current = this.effective());
  }

  /**
   * Reads the policy again (Chrome's `storage.onChanged` for the `managed` area): the settings in
   * force change at once and the listeners hear of it.
   */
  async reloadPolicy(): Promise<Settings> {
    this.managed = await this.readPolicy();
    this.commit(this.effective());
    return this.current;
  }

  /** The top-level settings enterprise policy sets: read-only on the options page and through `configure`. */
  managedKeys(): ReadonlySet<keyof Settings> {
    return this.managed.keys;
  }

  private effective(): Settings {
    return this.managed.keys.size ? applyPatch(this.local, this.managed.patch) : this.local;
  }

  private async readPolicy(): Promise<ManagedSettings> {
    if (!this.policy) return NO_MANAGED_SETTINGS;
    let raw: unknown;
    try {
      raw = await this.policy.read();
    } catch (error) {
      this.log(`[afr] enterprise policy not read: ${String(error)}`);
      return this.managed;
    }
    const { managed, problems } = parseManagedSettings(raw);
    if (problems.length) this.log(`[afr] enterprise policy values ignored (${problems.join('; ')}); the others apply`);
    return managed;
  }

  private async loadLocal(): Promise<Settings> {
    const raw = await this.storage.get(SETTINGS_KEY);
    if (raw === undefined) return DEFAULT_SETTINGS;
    const migrated = migrateStoredSettings(raw);
    if (!migrated) {
      this.log('[afr] stored settings are unreadable; using the defaults');
      return DEFAULT_SETTINGS;
    }
    // Read field by field as a change to the defaults: a bad field falls back alone.
    const valid: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, value] of Object.entries(migrated.settings)) {
      const field = SettingsPatchSchema.safeParse({ [key]: value });
      if (field.success) Object.assign(valid, field.data);
      else problems.push(describeZodError(field.error));
    }
    if (problems.length) this.log(`[afr] stored settings are invalid (${problems.join('; ')}); using defaults for those fields`);
    return applyPatch(DEFAULT_SETTINGS, valid as SettingsPatch);
  }

  get(): Settings {
    return this.current;
  }

  /**
   * Validates and applies a partial change; throws `SettingsError` and changes nothing when invalid
   * or when it names a setting enterprise policy sets.
   */
  async update(patch: unknown): Promise<Settings> {
    const parsed = SettingsPatchSchema.safeParse(patch);
    if (!parsed.success) throw new SettingsError(`invalid settings: ${describeZodError(parsed.error)}`);
    const refused = managedKeysIn(parsed.data, this.managed);
    if (refused.length) throw new SettingsError(managedRefusal(refused));
    const local = applyPatch(this.local, parsed.data);
    await this.storage.set(SETTINGS_KEY, wrapSettings(local));
    this.local = local;
    this.commit(this.effective());
    return this.current;
  }

  private commit(next: Settings): void {
    this.current = next;
    for (const listener of this.listeners) listener(next);
  }

  onChange(listener: (settings: Settings) => void): void {
    this.listeners.add(listener);
  }
}

/** In-memory `KeyValueStore` for tests. */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();
  async get(key: string): Promise<unknown> {
    return this.data.get(key);
  }
  async set(key: string, value: unknown): Promise<void> {
    this.data.set(key, structuredClone(value));
  }
}
