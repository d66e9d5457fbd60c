import type { KeyValueStore } from '../settings/settings-store';

/** The agent's current run, as declared with `runStart`. */
export interface RunInfo {
  runId: string;
  agent: string | null;
  agentVersion: string | null;
  task: string | null;
  startedAt: number;
}

export const RUN_KEY = 'run';

function isRunInfo(value: unknown): value is RunInfo {
  const v = value as Partial<RunInfo> | null;
  return typeof v === 'object' && v !== null && typeof v.runId === 'string' && typeof v.startedAt === 'number';
}

/**
 * The active run, kept in session storage so it survives service worker restarts. Without a declared
 * run, bundles carry the browser session's run id.
 */
export class RunState {
  private current: RunInfo | null = null;

  constructor(
    private readonly storage: KeyValueStore,
    private readonly sessionRunId: () => string,
  ) {}

  async load(): Promise<void> {
    const stored = await this.storage.get(RUN_KEY);
    this.current = isRunInfo(stored) ? stored : null;
  }

  get active(): RunInfo | null {
    return this.current;
  }

  /** The id bundles carry: the declared run's, else the session's. */
  get runId(): string {
    return this.current?.runId ?? this.sessionRunId();
  }

  async start(run: RunInfo): Promise<void> {
    this.current = run;
    await this.storage.set(RUN_KEY, run);
  }

  async end(): Promise<RunInfo | null> {
    const ended = this.current;
    this.current = null;
    await this.storage.set(RUN_KEY, null);
    return ended;
  }
}
