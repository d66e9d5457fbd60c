import { errorMessage } from '../shared/error-message';
import type { ActionBadge, Badge } from './ports';
import { toolbarView, type ToolbarInputs } from './toolbar-badge';

export interface ToolbarPorts {
  /** The recorder's state now (`status()`). */
  read(): Promise<ToolbarInputs>;
  badge: ActionBadge;
  log(message: string): void;
  /** Runs `fn` soon (a macrotask, so the changes of one moment make one update); `setTimeout` by default. */
  defer?(fn: () => void): void;
}

const sameBadge = (a: Badge | undefined, b: Badge) => a !== undefined && a.text === b.text && a.color === b.color && a.title === b.title;

/**
 * Keeps the toolbar button's badge in step with the recorder. It is told when something changed
 * (`refresh`) and never polls: the changes of one moment make one read of the state, and only the
 * badges that differ from what is shown are set.
 */
export class Toolbar {
  /** What each badge shows now, as this worker set it (null: the shared badge). */
  private readonly shown = new Map<number | null, Badge>();
  /** Tabs given a badge of their own: they keep one (see `toolbarView`). */
  private readonly placed = new Set<number>();
  private pending = false;
  private running: Promise<void> | null = null;

  constructor(private readonly ports: ToolbarPorts) {}

  /** Something the badge shows may have changed: it is read again soon, once for all the changes until then. */
  refresh(): void {
    if (this.pending) return;
    this.pending = true;
    (this.ports.defer ?? ((fn) => void setTimeout(fn, 0)))(() => void this.update());
  }

  /**
   * The tab loaded another document: Chrome drops a tab's own badge as the tab navigates
   * (`ExtensionAction::ClearAllValuesForTab`), so it is set again.
   */
  tabNavigated(tabId: number): void {
    if (!this.placed.has(tabId)) return;
    this.shown.delete(tabId);
    this.refresh();
  }

  /** The tab was closed. */
  forgetTab(tabId: number): void {
    this.placed.delete(tabId);
    this.shown.delete(tabId);
  }

  /** The update in flight, if any (tests wait for it). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async update(): Promise<void> {
    // One update at a time; a change during it is read by the next.
    if (this.running) await this.running.catch(() => undefined);
    this.pending = false;
    this.running = this.apply().finally(() => (this.running = null));
    await this.running;
  }

  private async apply(): Promise<void> {
    let view;
    try {
      view = toolbarView(await this.ports.read(), this.placed);
    } catch (error) {
      return this.ports.log(`[afr] toolbar badge not updated: ${errorMessage(error)}`);
    }
    for (const [tabId, badge] of [[null, view.global] as const, ...view.tabs]) {
      if (tabId !== null) this.placed.add(tabId);
      if (sameBadge(this.shown.get(tabId), badge)) continue;
      try {
        await this.ports.badge.set(tabId, badge);
        this.shown.set(tabId, badge);
      } catch (error) {
        // A tab closed meanwhile refuses its badge: it is forgotten when Chrome says so.
        this.ports.log(`[afr] toolbar badge${tabId === null ? '' : ` of tab ${tabId}`} not set: ${errorMessage(error)}`);
      }
    }
  }
}
