import { SettingsPatchSchema, type Settings, type SettingsPatch } from '../../schemas/settings';
import { describeZodError } from '../shared/zod-error';

/** Settings an administrator set by enterprise policy: they win over the user's and are read-only. */
export interface ManagedSettings {
  /** Applied over the user's settings like a `configure` patch. */
  patch: SettingsPatch;
  /** The top-level settings the policy sets (`upload`, `bufferSeconds`…). */
  keys: ReadonlySet<keyof Settings>;
}

export const NO_MANAGED_SETTINGS: ManagedSettings = { patch: {}, keys: new Set() };

/**
 * The policy as `chrome.storage.managed` gives it, read field by field: a field that fails the
 * settings schema (Chrome checks only types) is left out with a reason, and the others still apply.
 */
export function parseManagedSettings(policy: unknown): { managed: ManagedSettings; problems: string[] } {
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) return { managed: NO_MANAGED_SETTINGS, problems: policy === undefined ? [] : ['the policy is not an object'] };
  const patch: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(policy)) {
    const field = SettingsPatchSchema.safeParse({ [key]: value });
    if (field.success) Object.assign(patch, field.data);
    else problems.push(describeZodError(field.error));
  }
  return { managed: { patch: patch as SettingsPatch, keys: new Set(Object.keys(patch) as (keyof Settings)[]) }, problems };
}

/** The settings of `patch` that policy sets, in the order the patch names them. */
export function managedKeysIn(patch: object, managed: ManagedSettings): string[] {
  return Object.keys(patch).filter((key) => managed.keys.has(key as keyof Settings));
}

/** Why `afr.configure` refused a change of settings the policy sets. */
export function managedRefusal(keys: readonly string[]): string {
  const list = keys.join(', ');
  return `${list} ${keys.length === 1 ? 'is' : 'are'} set by your organization's policy (chrome://policy) and cannot be changed here; nothing was changed`;
}
