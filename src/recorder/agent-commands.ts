import type { AgentCommand } from '../../schemas/agent';
import type { CheckpointRef } from '../../schemas/timeline';
import type { Step } from '../../schemas/steps';
import type { FrameSources } from '../capture/frame-sources';
import { maskCommand } from '../redact/mask-command';
import { explicitSignal } from '../signals/normalize-signal';
import type { StepLog } from '../steps/step-log';
import type { PageGuard } from '../trust/page-guard';
import type { FailureJobs } from './failure-jobs';
import type { RecordingMode } from './recording-mode';
import type { RunState } from './run-state';
import type { TabScope } from './tab-scope';
import { commandStep } from './step-drafts';

/** Where and when a command was given: by the page protocol (`page`) or the automation API (`agent`). */
export interface CommandContext {
  tabId: number | null;
  url: string | null;
  ts: number;
  origin: 'page' | 'agent';
  /** The frame of the tab a page command came from (its step carries it); none for the agent's. */
  frameId?: number | null;
  /** The page's checkpoint taken by its top frame as it posted the command (see `AgentCommandMessage`). */
  checkpoint?: CheckpointRef;
}

/** What the agent commands act on. */
export interface AgentCommandPorts {
  stepLog: StepLog;
  mode: RecordingMode;
  run: RunState;
  failures: Pick<FailureJobs, 'trigger'>;
  frames: Pick<FrameSources, 'handleAction'>;
  /** Told of a page's run command refused (counted and warned of). */
  guard: Pick<PageGuard, 'refuseRunCommand'>;
  /** A DOM timeline checkpoint of the tab's page, for a step, assertion or mark (see `RecorderPorts`). */
  timelineCheckpoint?(tabId: number, label: string): Promise<CheckpointRef | null>;
  /** The recording scope: the agent's run brings its tab in, its end takes the agent's tabs out. */
  scope?: Pick<TabScope, 'agentRunStarted' | 'agentRunEnded'>;
  /** The browser's latest word on a tab's URL, redacted (the run's tab may be found only as the run starts). */
  tabUrl?(tabId: number): string | null;
  /** Told of each step the agent itself (`afr.step`) put on the timeline (the agent-side quick checks). */
  agentStepAdded?(step: Step): Promise<void>;
}

/**
 * The agent's commands, from its page (the page protocol) or its harness (`afr`): masked, put on the
 * timeline, and acted upon (a run declared or ended, a failure or a failed assertion bundled). A
 * page's commands never speak for the agent: it cannot start, end or replace the agent's run, and its
 * failures are never explicit (the cooldown and the page-bundle quota apply).
 */
export class AgentCommands {
  constructor(private readonly ports: AgentCommandPorts) {}

  /** Resolves to the run id for `runStart`, the bundle id of a command that bundled, else null. */
  async run(raw: AgentCommand, given: CommandContext): Promise<string | null> {
    let at = given;
    const { stepLog, mode, run, failures } = this.ports;
    const c = maskCommand(raw, mode.masker);
    const byPage = at.origin === 'page';
    if (byPage && (c.kind === 'runStart' || c.kind === 'runEnd')) {
      const refusal = run.pageRefusal(c.kind, at.tabId);
      if (refusal) {
        this.ports.guard.refuseRunCommand(at.tabId, c.kind, refusal);
        return null;
      }
    }
    if (c.kind === 'runStart') {
      const runId = c.runId ?? `run-${at.ts.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      await run.start({ runId, agent: c.agent ?? null, agentVersion: c.agentVersion ?? null, task: c.task ?? null, startedAt: at.ts }, at.origin, at.tabId);
      // Only the agent's run brings a tab into the scope: a page cannot have itself recorded.
      if (!byPage && this.ports.scope) {
        const tabId = await this.ports.scope.agentRunStarted(at.tabId);
        // The run's step is labelled with the page of the tab it bound, when that has one already.
        const url = at.url ?? (tabId === null ? null : (this.ports.tabUrl?.(tabId) ?? null));
        at = { ...at, tabId, url };
      }
    }
    const runId = run.runIdOf(at.tabId);
    if (mode.recordsTimeline && c.kind !== 'fail') {
      const step = commandStep(c, at.ts, at.tabId, at.url, runId, at.frameId ?? null);
      const checkpoint = await this.checkpointFor(c, at);
      const added = await stepLog.add(checkpoint ? { ...step, checkpoint } : step);
      if (!byPage && c.kind === 'step') await this.ports.agentStepAdded?.(added);
    }
    if (mode.recordsTimeline && (c.kind === 'step' || c.kind === 'assert') && at.tabId !== null) {
      this.ports.frames.handleAction(at.tabId, at.ts, { capture: mode.settings.captureOnAction, action: true });
    }
    switch (c.kind) {
      case 'runStart':
        return runId;
      case 'fail': {
        const bundle = await failures.trigger(explicitSignal({ ...at, reason: c.reason, label: c.label ?? null }), { explicit: !byPage });
        return bundle?.id ?? null;
      }
      case 'assert': {
        if (c.passed || mode.settings.persistMode === 'manual') return null;
        const message = [c.expected !== undefined && `expected ${c.expected}`, c.actual !== undefined && `actual ${c.actual}`].filter(Boolean).join(', ');
        const signal = explicitSignal({ ...at, reason: 'assertion_failed', label: c.label, kind: 'assertion', message: message ? `${c.label}: ${message}` : c.label });
        return (await failures.trigger(signal, { explicit: !byPage }))?.id ?? null;
      }
      case 'runEnd': {
        const ended = await run.end(at.origin, at.tabId);
        try {
          if (mode.settings.persistMode !== 'always') return null;
          const passed = c.outcome !== 'failed';
          const signal = explicitSignal({ ...at, reason: passed ? 'run_passed' : 'run_failed', label: c.label ?? null });
          const bundle = await failures.trigger(signal, { explicit: !byPage, status: passed ? 'success' : 'failure', runOverride: ended, outcome: c.outcome ?? 'passed' });
          return bundle?.id ?? null;
        } finally {
          // The agent's tabs leave the scope once its run's bundle is made.
          if (!byPage) await this.ports.scope?.agentRunEnded();
        }
      }
      default:
        return null;
    }
  }

  /** The page as the agent's step, assertion or mark is recorded (capture level `trace` and up). */
  private async checkpointFor(c: AgentCommand, { tabId, checkpoint }: CommandContext): Promise<CheckpointRef | null> {
    const { mode, timelineCheckpoint } = this.ports;
    if (tabId === null || !mode.recordsDom) return null;
    if (c.kind !== 'step' && c.kind !== 'assert' && c.kind !== 'mark') return null;
    // Taken by the page as it posted the command: the page at the step's own time. Asked for now, it
    // may come after the actions that followed (the worker may still be starting, or busy).
    if (checkpoint) return checkpoint;
    if (!timelineCheckpoint) return null;
    const label = c.kind === 'step' ? `step ${c.action}` : `${c.kind} ${c.label}`;
    return timelineCheckpoint(tabId, label).catch(() => null);
  }
}
