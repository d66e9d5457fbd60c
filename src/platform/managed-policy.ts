import { browser } from 'wxt/browser';
import type { PolicySource } from '../settings/settings-store';

/**
 * Enterprise policy for this extension: what an administrator put under `3rdparty.extensions.<id>`
 * (Linux: a JSON file in `/etc/chromium/policies/managed/`), already checked by Chrome against
 * `managed_schema.json` (values of the wrong type are dropped before they get here).
 */
export const chromeManagedPolicy: PolicySource = {
  read: () => browser.storage.managed.get(null),
};

/** Calls `listener` when the policy changes while the browser runs (Chrome re-reads policy every few minutes, or on chrome://policy's "Reload"). */
export function onManagedPolicyChanged(listener: () => void): void {
  browser.storage.onChanged.addListener((_changes, area) => {
    if (area === 'managed') listener();
  });
}
