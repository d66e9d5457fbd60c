import type { RedactionPreview } from '../../schemas/api';
import type { RedactionRules } from '../../schemas/settings';
import type { DownloadBundle } from '../bundle/download-sink';
import type { PackagerPorts } from '../bundle/packager';
import type { BundleSink } from '../bundle/ports';
import type { FrameSourcePorts } from '../capture/frame-sources';
import type { KeyValueStore, SettingsStore } from '../settings/settings-store';

/** Everything the recorder needs from the browser and the stores; the service worker provides them. */
export interface RecorderPorts
  extends Omit<PackagerPorts, 'capture' | 'stepsSettled'>,
    Pick<FrameSourcePorts, 'capturer' | 'screencast' | 'maskFrame' | 'requestRegions' | 'syncRegions' | 'zoomOf'> {
  settingsStore: SettingsStore;
  /** Where each stored bundle goes next (retention, the downloads folder…), in order. */
  sinks: readonly BundleSink[];
  /** Saves a stored bundle to the user's downloads on the operator's request. */
  download: DownloadBundle;
  /** Called for every tab the recorder sees activity in, so the platform can attach its debugger. */
  watchTab(tabId: number): void;
  /** Where the declared run and the pause survive service worker restarts (`chrome.storage.session`). */
  sessionStore: KeyValueStore;
  /** Waits (the after-failure tail); `setTimeout` by default. */
  sleep?(ms: number): Promise<void>;
  /** The tab's current URL (redacted) as the browser last reported it, if known. */
  currentTabUrl?(tabId: number): string | null;
  /** Asks the tab's content script what the given redaction rules (plus the built-in ones) would mask. */
  previewRedaction(tabId: number, rules: RedactionRules): Promise<RedactionPreview>;
  /** The browser session's run id, used when the agent declared no run. */
  sessionRunId(): string;
}
