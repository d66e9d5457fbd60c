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

/** Where the policy last read is kept: a browser's start goes on with it while Chrome's policy service starts. */
export const POLICY_CACHE_KEY = 'managedPolicy';

/**
 * How long loading waits for the policy before going on with the one last read. At a browser's start
 * `chrome.storage.managed` answers only once Chrome's policy service is up: 2.7 s here, with or without
 * a policy (other extensions measured 3–8 s); a worker restarted later gets its answer in milliseconds.
 */
export const POLICY_WAIT_MS = 250;

const TIMED_OUT = Symbol('timed out');

/**
 * Loads, validates and persists the recorder settings. Settings set by enterprise policy win over the
 * user's: `get()` has them, and `update()` refuses to change them.
 */
export class SettingsStore {
  private current: Settings = DEFAULT_SETTINGS;
  /** The user's own settings, under the policy's. */
  private local: Settings = DEFAULT_SETTINGS;
  private managed: ManagedSettings = NO_MANAGED_SETTINGS;
  /** Policy reads started, and the newest one applied: an answer older than the policy in force is dropped. */
  private policyReads = 0;
  private policyApplied = 0;
  /** The policy's answer a start went on without; settled once it is in (or failed). */
  private latePolicy: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(settings: Settings) => void>();

  constructor(
    private readonly storage: KeyValueStore,
    private readonly log: (message: string) => void = console.warn,
    private readonly policy: PolicySource | null = null,
    private readonly policyWaitMs = POLICY_WAIT_MS,
  ) {}

  /**
   * Reads stored settings, migrating older versions; anything invalid falls back to the defaults,
   * field by field, with a warning. The policy is waited for `policyWaitMs` at most: when it answers
   * later, the policy last read is in force until then, and the listeners hear of the change.
   */
  async load(): Promise<Settings> {
    this.local = await this.loadLocal();
    const reading = this.readPolicy();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = await Promise.race([reading, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), this.policyWaitMs)))]);
    clearTimeout(timer);
    if (answer === TIMED_OUT) {
      const cached = await this.cachedPolicy();
      if (this.policyApplied === 0) this.managed = cached;
      this.latePolicy = reading.then((late) => {
        if (late && this.apply(late)) this.commit(this.effective());
      });
    } else if (answer) this.apply(answer);
    return (this.current = this.effective());
  }

  /**
   * Reads the policy again (Chrome's `storage.onChanged` for the `managed` area): the settings in
   * force change at once and the listeners hear of it.
   */
  async reloadPolicy(): Promise<Settings> {
    const read = await this.readPolicy();
    if (read) this.apply(read);
    this.commit(this.effective());
    return this.current;
  }

  /**
   * `settings` (of a moment past) with the policy over them, once a policy read that loading did not
   * wait for has answered: where a bundle goes (the policy's bucket) is not decided by the settings of
   * a browser start's first moments.
   */
  async withSettledPolicy(settings: Settings): Promise<Settings> {
    await this.latePolicy;
    return this.managed.keys.size ? applyPatch(settings, this.managed.patch) : settings;
  }

  /** Puts a policy read in force unless a newer read is; whether the settings it sets changed. */
  private apply({ managed, seq }: { managed: ManagedSettings; seq: number }): boolean {
    if (seq < this.policyApplied) return false;
    this.policyApplied = seq;
    const changed = JSON.stringify(managed.patch) !== JSON.stringify(this.managed.patch);
    this.managed = managed;
    return changed;
  }

  /** The policy last read, as kept in storage; none when nothing is kept or it cannot be read. */
  private async cachedPolicy(): Promise<ManagedSettings> {
    try {
      return parseManagedSettings(await this.storage.get(POLICY_CACHE_KEY)).managed;
    } catch (error) {
      this.log(`[afr] the policy last read is unreadable: ${String(error)}`);
      return NO_MANAGED_SETTINGS;
    }
  }

  /** The top-level settings enterprise policy sets: read-only on the options page and through `configure`. */
  managedKeys(): ReadonlySet<keyof Settings> {
    return this.managed.keys;
  }

  private effective(): Settings {
    return this.managed.keys.size ? applyPatch(this.local, this.managed.patch) : this.local;
  }

  /** The policy as Chrome has it now, numbered in the order the reads began; null when it cannot be read (the one in force stays). */
  private async readPolicy(): Promise<{ managed: ManagedSettings; seq: number } | null> {
    const seq = ++this.policyReads;
    if (!this.policy) return { managed: NO_MANAGED_SETTINGS, seq };
    let raw: unknown;
    try {
      raw = await this.policy.read();
    } catch (error) {
      this.log(`[afr] enterprise policy not read: ${String(error)}`);
      return null;
    }
    const { managed, problems } = parseManagedSettings(raw);
    if (problems.length) this.log(`[afr] enterprise policy values ignored (${problems.join('; ')}); the others apply`);
    // Kept for the next browser start; a failed write only makes that start wait for Chrome's answer.
    const kept = managed.keys.size ? raw : {};
    if (JSON.stringify(kept) !== JSON.stringify(await this.storage.get(POLICY_CACHE_KEY).catch(() => undefined))) {
      await this.storage.set(POLICY_CACHE_KEY, kept).catch((error: unknown) => this.log(`[afr] the policy read is not kept for the next start: ${String(error)}`));
    }
    return { managed, seq };
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
