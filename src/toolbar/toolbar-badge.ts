import type { Status } from '../../schemas/api';
import type { Badge } from './ports';

/** What the badge is read from: the parts of `status()` that say what the recorder is doing. */
export type ToolbarInputs = Pick<Status, 'paused' | 'captureLevel' | 'packaging' | 'downloads' | 'scope'> & Partial<Pick<Status, 'upload' | 'lastBundleError'>>;

/** The states the badge tells apart, most urgent first (the first that holds is shown). */
export type ToolbarState = 'packaging' | 'bundle-failed' | 'paused' | 'upload-pending' | 'recording' | 'idle';

const NAME = 'Agent Flight Recorder';

/** The legend (docs/operator-pages.md's table): text and colour of each state. */
export const BADGES: Record<ToolbarState, Omit<Badge, 'title'> & { meaning: string }> = {
  packaging: { text: '\u2026', color: '#1a73e8', meaning: 'writing a bundle' },
  'bundle-failed': { text: '!', color: '#e8710a', meaning: 'the last bundle failed' },
  paused: { text: 'II', color: '#5f6368', meaning: 'paused' },
  'upload-pending': { text: '\u2191', color: '#8430ce', meaning: 'bundles waiting for upload' },
  recording: { text: 'REC', color: '#d93025', meaning: 'recording' },
  idle: { text: '', color: '#5f6368', meaning: 'not recording' },
};

/** Why the last bundle failed: it could not be written, or Chrome did not save its download; else null. */
export function bundleFailure(inputs: ToolbarInputs): string | null {
  if (inputs.lastBundleError) return `it could not be written (${inputs.lastBundleError})`;
  if (inputs.downloads.state === 'interrupted') return `Chrome did not save its download (${inputs.downloads.error ?? 'interrupted'})`;
  return null;
}

/**
 * The recorder's state for one tab: `recorded` says whether the tab is in the recording scope. A tab
 * outside it shows only what concerns the whole recorder (a bundle being written or failed, uploads
 * waiting), never "recording" or "paused": nothing of it is recorded either way.
 */
export function toolbarState(inputs: ToolbarInputs, recorded: boolean): ToolbarState {
  if (inputs.packaging) return 'packaging';
  if (bundleFailure(inputs) !== null) return 'bundle-failed';
  if (recorded && inputs.paused) return 'paused';
  if (inputs.upload && inputs.upload.queued + inputs.upload.uploading > 0) return 'upload-pending';
  if (recorded && inputs.captureLevel !== 'off') return 'recording';
  return 'idle';
}

/** The badge of one tab (see `toolbarState`), with a tooltip that says what it means. */
export function toolbarBadge(inputs: ToolbarInputs, recorded: boolean): Badge {
  const state = toolbarState(inputs, recorded);
  const { meaning, ...badge } = BADGES[state];
  const upload = inputs.upload;
  const detail =
    state === 'bundle-failed'
      ? `: ${bundleFailure(inputs)}`
      : state === 'upload-pending' && upload
        ? ` (${upload.queued + upload.uploading})`
        : state === 'idle' && !recorded
          ? ' (this tab is outside the recording scope)'
          : '';
  return { ...badge, title: `${NAME}: ${meaning}${detail}` };
}

/** What the toolbar shows: the badge of every tab without one of its own, and the tabs that have one. */
export interface ToolbarView {
  global: Badge;
  tabs: Map<number, Badge>;
}

/**
 * The badges to show. With `scope: 'all'` every tab is recorded and one badge serves them all; with
 * a narrower scope the shared badge is the one of a tab outside it, and each recorded tab has its own.
 * `placed` are tabs that were given a badge of their own before: they keep one (a tab that left the
 * scope is given the outside badge rather than keep a stale "recording").
 */
export function toolbarView(inputs: ToolbarInputs, placed: Iterable<number> = []): ToolbarView {
  const all = inputs.scope.mode === 'all';
  const recorded = new Set(all ? [] : inputs.scope.recordedTabs);
  const tabs = new Map<number, Badge>();
  for (const tabId of new Set([...recorded, ...placed])) tabs.set(tabId, toolbarBadge(inputs, all || recorded.has(tabId)));
  return { global: toolbarBadge(inputs, all), tabs };
}
