import type { DownloadsStatus, RedactionPreview } from '../../schemas/api';
import type { RedactionRules, Settings } from '../../schemas/settings';
import type { BundleUpload, UploadProbeResult, UploadSettings, UploadStatus } from '../../schemas/upload';
import type { CheckpointRef } from '../../schemas/timeline';
import type { DownloadBundle } from '../bundle/download-sink';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';
import type { PackagerPorts } from '../bundle/packager';
import type { BundleHold, BundleSink } from '../bundle/ports';
import type { FrameSourcePorts } from '../capture/frame-sources';
import type { KeyValueStore, SettingsStore } from '../settings/settings-store';
import type { ResponseBodyReader } from '../network/ports';

/** Everything the recorder needs from the browser and the stores; the service worker provides them. */
export interface RecorderPorts
  extends Omit<PackagerPorts, 'capture' | 'stepsSettled'>,
    Pick<FrameSourcePorts, 'capturer' | 'screencast' | 'maskFrame' | 'requestRegions' | 'syncRegions' | 'zoomOf'> {
  settingsStore: SettingsStore;
  /** Where each stored bundle goes next (retention, the downloads folder…), in order. */
  sinks: readonly BundleSink[];
  /** Saves a stored bundle to the user's downloads on the operator's request. */
  download: DownloadBundle;
  /** Called for every recorded tab the recorder sees activity in, so the platform can attach its debugger. */
  watchTab(tabId: number): void;
  /** The tab left the recording scope: the platform closes its debugger session. */
  unwatchTab?(tabId: number): void;
  /** The active tab of the focused window, whatever its page: the tab of an agent's run started with none named. */
  activeTab?(): Promise<number | null>;
  /** Where the declared run and the pause survive service worker restarts (`chrome.storage.session`). */
  sessionStore: KeyValueStore;
  /** Waits (the after-failure tail); `setTimeout` by default. */
  sleep?(ms: number): Promise<void>;
  /** The tab's current URL (redacted) as the browser last reported it, if known. */
  currentTabUrl?(tabId: number): string | null;
  /** Asks the tab's content script what the given redaction rules (plus the built-in ones) would mask. */
  previewRedaction(tabId: number, rules: RedactionRules): Promise<RedactionPreview>;
  /** What became of the latest bundle download (`status().downloads`). */
  downloadsStatus?(): DownloadsStatus;
  /** The browser session's run id, used when the agent declared no run. */
  sessionRunId(): string;
  /**
   * Something `status()` shows an operator at a glance may have changed (the pause, the settings, the
   * scope, a bundle begun or ended): the toolbar badge is read again. Never called on a timer.
   */
  stateChanged?(): void;
  /**
   * Asks the tab's top frame for a DOM timeline checkpoint now (an agent's step, assertion or mark
   * being recorded), with a timeout; null when the page has no timeline.
   */
  timelineCheckpoint?(tabId: number, label: string): Promise<CheckpointRef | null>;
  /** The tabs' DOM timelines, kept under the window and `maxTimelineBytes`. */
  timeline?: TimelineKeeper;
  /** Response bodies from the tabs' debugger sessions, for `network.har`; none: the log keeps no response body. */
  networkBodies?: ResponseBodyReader;
  /** Delivery to object storage, when it is wired: what `status().upload` and each bundle's `upload` show, what retention keeps. */
  delivery?: DeliveryView;
}

/** Delivery to object storage as the recorder reads it. */
export interface DeliveryView extends BundleHold {
  status(settings: Settings): Promise<UploadStatus>;
  /** Each queued bundle's delivery, by bundle id. */
  states(): Promise<ReadonlyMap<string, BundleUpload>>;
  /** "Test connection": a probe object written and deleted with these settings. */
  probe(upload: UploadSettings): Promise<UploadProbeResult>;
}
