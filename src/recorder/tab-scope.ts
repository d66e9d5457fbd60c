import type { Settings } from '../../schemas/settings';
import type { KeyValueStore } from '../settings/settings-store';
import { isTabRecorded } from './record-scope';

export const SCOPE_KEY = 'scope';

/** What session storage holds: the agent's tabs and the operator's chosen tabs. */
interface StoredScope {
  agent: number[];
  chosen: number[];
}

function tabIds(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : [];
}

/** What the tab scope reads and whom it tells. */
export interface TabScopePorts {
  /** Where the agent's and the chosen tabs survive service worker restarts (`chrome.storage.session`). */
  sessionStore: KeyValueStore;
  settings(): Settings;
  /** Whether the agent's run (`afr.runStart`) is active now. */
  agentRunActive(): boolean;
  /** The active tab of the focused window, whatever its page (a new page is about:blank). */
  activeTab?(): Promise<number | null>;
  /** A tab entered (`true`) or left the scope: recording of it starts or stops. */
  changed(tabId: number, recorded: boolean): void;
}

/**
 * Which tabs are recorded, by the `scope` setting, kept current as tabs open, navigate and close, as
 * the agent's run starts and ends and as the operator chooses tabs. The agent's tabs are: the tab of
 * its `runStart` (named, else the visible one), every tab created while its run is active, and every
 * tab opened from one of its tabs; they leave the scope when its run ends. Both sets are kept in
 * session storage, as the runs and the pause are.
 */
export class TabScope {
  private readonly agentTabs = new Set<number>();
  private readonly chosenTabs = new Set<number>();
  /** Every open tab the browser told of, with its URL. */
  private readonly urls = new Map<number, string | null>();
  /** The tabs recorded as last told through `changed`. */
  private recorded = new Set<number>();
  /** Nothing is told through `changed` before the stored sets are loaded (the worker is starting). */
  private loaded = false;

  constructor(private readonly ports: TabScopePorts) {}

  async load(): Promise<void> {
    const stored = (await this.ports.sessionStore.get(SCOPE_KEY)) as Partial<StoredScope> | undefined | null;
    for (const id of tabIds(stored?.agent)) this.agentTabs.add(id);
    for (const id of tabIds(stored?.chosen)) this.chosenTabs.add(id);
    this.loaded = true;
    this.refresh();
  }

  /** Whether the tab is recorded now. */
  recordsTab(tabId: number): boolean {
    const { scope, scopeOrigins } = this.ports.settings();
    return isTabRecorded(scope, scopeOrigins, { url: this.urls.get(tabId) ?? null, agent: this.agentTabs.has(tabId), chosen: this.chosenTabs.has(tabId) });
  }

  /** The open tabs recorded now, in id order. */
  recordedTabs(): number[] {
    return [...this.knownTabs()].filter((id) => this.recordsTab(id)).sort((a, b) => a - b);
  }

  /** Whether the operator chose the tab. */
  isChosen(tabId: number): boolean {
    return this.chosenTabs.has(tabId);
  }

  /** The agent's tabs and the chosen ones, in id order. */
  get sets(): { agent: number[]; chosen: number[] } {
    return { agent: [...this.agentTabs].sort((a, b) => a - b), chosen: [...this.chosenTabs].sort((a, b) => a - b) };
  }

  /**
   * The browser told of an open tab's page (at start-up, on a navigation, or a message of its content
   * script). An empty URL (a tab that has not committed its first page yet) is no URL: it never erases
   * one known already, and the tab is placed by its origin once it commits one.
   */
  tabSeen(tabId: number, url: string | null): void {
    if (!url && this.urls.has(tabId)) return;
    this.urls.set(tabId, url || null);
    this.refresh();
  }

  /** A tab was created: it is the agent's when the agent's run is active or its opener is one of the agent's tabs. */
  async tabCreated(tabId: number, openerTabId: number | null, url: string | null): Promise<void> {
    this.urls.set(tabId, url || null);
    const byAgent = this.ports.agentRunActive() || (openerTabId !== null && this.agentTabs.has(openerTabId));
    if (byAgent) this.agentTabs.add(tabId);
    this.refresh();
    if (byAgent) await this.save();
  }

  /**
   * The agent started its run on the tab (null: the active tab of the focused window, asked now).
   * Resolves to the tab the run was bound to, if any.
   */
  async agentRunStarted(tabId: number | null): Promise<number | null> {
    const tab = tabId ?? (await this.ports.activeTab?.()) ?? null;
    if (tab === null) return null;
    this.agentTabs.add(tab);
    this.refresh();
    await this.save();
    return tab;
  }

  /** The agent's run ended: its tabs leave the scope (under `scope: 'agent'`). */
  async agentRunEnded(): Promise<void> {
    this.agentTabs.clear();
    this.refresh();
    await this.save();
  }

  /** The operator's "Record this tab" toggle. */
  async choose(tabId: number, chosen: boolean): Promise<void> {
    if (chosen) this.chosenTabs.add(tabId);
    else this.chosenTabs.delete(tabId);
    this.urls.set(tabId, this.urls.get(tabId) ?? null);
    this.refresh();
    await this.save();
  }

  /** The tab was closed. */
  async forget(tabId: number): Promise<void> {
    const agent = this.agentTabs.delete(tabId);
    const held = this.chosenTabs.delete(tabId) || agent;
    this.urls.delete(tabId);
    this.recorded.delete(tabId);
    if (held) await this.save();
  }

  /** The tabs open now (at start-up): the agent's or chosen tabs closed meanwhile go. */
  async keepTabs(open: Iterable<number>): Promise<void> {
    const keep = new Set(open);
    let dropped = false;
    for (const set of [this.agentTabs, this.chosenTabs]) {
      for (const id of [...set]) if (!keep.has(id) && set.delete(id)) dropped = true;
    }
    for (const id of [...this.urls.keys()]) if (!keep.has(id)) this.urls.delete(id);
    this.refresh();
    if (dropped) await this.save();
  }

  /** Tells `changed` of every tab whose recording the latest facts or settings changed. */
  refresh(): void {
    if (!this.loaded) return;
    const now = new Set(this.recordedTabs());
    const before = this.recorded;
    this.recorded = now;
    for (const id of now) if (!before.has(id)) this.ports.changed(id, true);
    for (const id of before) if (!now.has(id)) this.ports.changed(id, false);
  }

  private knownTabs(): Set<number> {
    return new Set([...this.urls.keys(), ...this.agentTabs, ...this.chosenTabs]);
  }

  private save(): Promise<void> {
    const stored: StoredScope = this.sets;
    return this.ports.sessionStore.set(SCOPE_KEY, stored);
  }
}
