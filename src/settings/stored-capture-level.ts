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

/**
 * What the page's DOM timeline needs of the stored settings value: whether it is recorded (capture
 * level `trace` and up; the default level records it) and the window it is kept for.
 */
export function timelineFromStoredSettings(stored: unknown): { recorded: boolean; bufferSeconds: number } {
  const settings = migrateStoredSettings(stored)?.settings;
  const level = CaptureLevelSchema.safeParse(settings?.captureLevel);
  const seconds = settings?.bufferSeconds;
  return {
    recorded: captureLevelAtLeast(level.success ? level.data : 'full', 'trace'),
    bufferSeconds: typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 300) : 15,
  };
}
