import type { KeyValueStore } from '../settings/settings-store';

/** A run, as declared with `runStart`. */
export interface RunInfo {
  runId: string;
  agent: string | null;
  agentVersion: string | null;
  task: string | null;
  startedAt: number;
}

/** Who declared a run: the agent through `afr`, or a tab's page through the page protocol. */
export type RunOwner = 'agent' | 'page';

export const RUN_KEY = 'run';

/** What session storage holds: the agent's run and each tab's page run. */
interface StoredRuns {
  agent: RunInfo | null;
  pages: Record<string, RunInfo>;
}

function isRunInfo(value: unknown): value is RunInfo {
  const v = value as Partial<RunInfo> | null;
  return typeof v === 'object' && v !== null && typeof v.runId === 'string' && typeof v.startedAt === 'number';
}

/** The stored runs; a lone run (as stored before page runs were kept apart) is the agent's. */
function readStored(stored: unknown): StoredRuns {
  if (isRunInfo(stored)) return { agent: stored, pages: {} };
  const v = stored as Partial<StoredRuns> | null;
  if (typeof v !== 'object' || v === null) return { agent: null, pages: {} };
  const pages = typeof v.pages === 'object' && v.pages !== null ? Object.fromEntries(Object.entries(v.pages).filter(([, run]) => isRunInfo(run))) : {};
  return { agent: isRunInfo(v.agent) ? v.agent : null, pages };
}

/** Why a page may not declare or end a run on a tab, or null when it may. */
export type PageRunRefusal = string | null;

/**
 * The runs, kept in session storage so they survive service worker restarts. The agent's run (`afr`)
 * covers every tab; a page may declare a run of its own tab only while the agent has none, and can
 * neither end nor replace the agent's. A bundle carries its tab's run: the agent's, else the tab's
 * page run, else the browser session's run id.
 */
export class RunState {
  private agentRun: RunInfo | null = null;
  private readonly pageRuns = new Map<string, RunInfo>();

  constructor(
    private readonly storage: KeyValueStore,
    private readonly sessionRunId: () => string,
  ) {}

  async load(): Promise<void> {
    const stored = readStored(await this.storage.get(RUN_KEY));
    this.agentRun = stored.agent;
    this.pageRuns.clear();
    for (const [tab, run] of Object.entries(stored.pages)) this.pageRuns.set(tab, run);
  }

  /** The agent's run (what `afr.status()` reports), or null. */
  get active(): RunInfo | null {
    return this.agentRun;
  }

  /** The id bundles carry without a run of their tab: the agent's run's, else the session's. */
  get runId(): string {
    return this.agentRun?.runId ?? this.sessionRunId();
  }

  /** The run a tab's bundles and steps belong to: the agent's, else the tab's page run. */
  runOf(tabId: number | null): RunInfo | null {
    return this.agentRun ?? this.pageRuns.get(String(tabId)) ?? null;
  }

  /** The id the tab's bundles and steps carry. */
  runIdOf(tabId: number | null): string {
    return this.runOf(tabId)?.runId ?? this.sessionRunId();
  }

  /** The run the tab's page declared, if the agent has none. */
  pageRunOf(tabId: number): RunInfo | null {
    return this.agentRun ? null : (this.pageRuns.get(String(tabId)) ?? null);
  }

  /** Why the tab's page may not run `kind` now, or null. */
  pageRefusal(kind: 'runStart' | 'runEnd', tabId: number | null): PageRunRefusal {
    if (this.agentRun) return "the agent's run is active (a page cannot start, end or replace it)";
    if (kind === 'runEnd' && !this.pageRuns.has(String(tabId))) return 'the page declared no run on this tab';
    return null;
  }

  /**
   * Declares a run: the agent's covers every tab (page runs end: they held only while it had none);
   * a page's covers its tab. Check `pageRefusal` first for a page's.
   */
  async start(run: RunInfo, by: RunOwner, tabId: number | null): Promise<void> {
    if (by === 'agent') {
      this.agentRun = run;
      this.pageRuns.clear();
    } else this.pageRuns.set(String(tabId), run);
    await this.save();
  }

  /** Ends the agent's run, or the tab's page run; resolves to the run ended. */
  async end(by: RunOwner, tabId: number | null): Promise<RunInfo | null> {
    let ended: RunInfo | null;
    if (by === 'agent') {
      ended = this.agentRun;
      this.agentRun = null;
    } else {
      ended = this.pageRuns.get(String(tabId)) ?? null;
      this.pageRuns.delete(String(tabId));
    }
    await this.save();
    return ended;
  }

  /** The tab was closed: its page run goes. */
  async forget(tabId: number): Promise<void> {
    if (this.pageRuns.delete(String(tabId))) await this.save();
  }

  private save(): Promise<void> {
    const stored: StoredRuns = { agent: this.agentRun, pages: Object.fromEntries(this.pageRuns) };
    return this.storage.set(RUN_KEY, stored);
  }
}
