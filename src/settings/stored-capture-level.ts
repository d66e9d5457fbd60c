import { captureLevelAtLeast, CaptureLevelSchema } from '../../schemas/capture-level';
import { migrateStoredSettings } from './migrations';

/**
 * Whether the stored settings value (`chrome.storage.local` `settings`, any schema version) has
 * frames recorded: capture level `screenshots` or `full`. True when it holds no valid level, since
 * the default level records them.
 */
export function recordsFramesFromStoredSettings(stored: unknown): boolean {
  const level = CaptureLevelSchema.safeParse(migrateStoredSettings(stored)?.settings.captureLevel);
  return captureLevelAtLeast(level.success ? level.data : 'full', 'screenshots');
}
