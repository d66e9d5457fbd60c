import type { Settings } from '../../schemas/settings';
import type { CaptureTarget } from '../capture/ports';

/** Where the tabs' URLs and the visible tabs are read, and which tabs are recorded. */
export interface TabLookupPorts {
  /** The capture loop's tabs (a tick old) and the visible tab of each window, asked now. */
  frames: { targets(): readonly CaptureTarget[]; listTargets(): Promise<readonly CaptureTarget[]> };
  settings(): Pick<Settings, 'scope'>;
  scope: { recordsTab(tabId: number): boolean; recordedTabs(): number[] };
  /** The browser's latest word on a tab's URL, redacted. */
  currentTabUrl?(tabId: number): string | null;
}

/** Which tab a command is about, and a tab's URL as best known. */
export class TabLookup {
  constructor(private readonly ports: TabLookupPorts) {}

  /**
   * The tab a command is about, with its URL. One named none means the visible tab of the first
   * window Chrome lists with a capturable page, asked now (the capture loop's list may be a tick
   * old: a tab that just navigated).
   */
  async tabFor(tabId: number | undefined): Promise<{ tabId: number | null; url: string | null }> {
    const tab = tabId ?? (await this.defaultTab());
    return { tabId: tab, url: tab === null ? null : this.tabUrl(tab) };
  }

  /** The browser's latest word on the tab's URL; the capture loop's (a tick old) otherwise. */
  tabUrl(tabId: number): string | null {
    return this.ports.currentTabUrl?.(tabId) ?? this.ports.frames.targets().find((t) => t.tabId === tabId)?.url ?? null;
  }

  /** The visible tab recorded first, else the first recorded tab; with `scope: 'all'` the visible tab. */
  private async defaultTab(): Promise<number | null> {
    const { frames, scope } = this.ports;
    const visible = await frames.listTargets();
    if (this.ports.settings().scope === 'all') return visible[0]?.tabId ?? null;
    return visible.find((t) => scope.recordsTab(t.tabId))?.tabId ?? scope.recordedTabs()[0] ?? null;
  }
}
