import { STEP_BATCH_MAX, StepObservedMessageSchema, ToBackgroundMessageSchema, type StepObservedMessage, type ToBackgroundMessage } from '../../schemas/messages';
import type { TimelineMessage } from '../../schemas/timeline';
import { TIMELINE_LIMITS } from '../../schemas/content-port';
import type { FrameSources } from '../capture/frame-sources';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';
import type { Clock } from '../shared/clock';
import { reconcileTimestamp } from '../shared/timestamps';
import { describeZodError } from '../shared/zod-error';
import { ECHO_KEPT_MS } from '../signals/exception-echo';
import type { StepLog } from '../steps/step-log';
import type { PageGuard } from '../trust/page-guard';
import type { AgentCommands } from './agent-commands';
import { MalformedMessageLog } from './malformed-message-log';
import type { RecordingMode } from './recording-mode';
import type { SignalIntake } from './signal-intake';
import { observedStep } from './step-drafts';

/** Who sent a content-script message (from `chrome.runtime.MessageSender`). */
export interface MessageOrigin {
  tabId: number | null;
  frameId: number | null;
  /** The sending document's origin (`MessageSender.origin`); decides whether a frame inside the page may send commands. */
  frameOrigin?: string | null;
}

/** Where the content scripts' messages go. */
export interface MessageIntakePorts {
  clock: Clock;
  stepLog: StepLog;
  mode: RecordingMode;
  frames: Pick<FrameSources, 'updateRegions' | 'handleAction'>;
  commands: Pick<AgentCommands, 'run'>;
  signals: Pick<SignalIntake, 'handleSignal'>;
  /** Where a top frame's DOM timeline is kept (none: not recorded). */
  timeline?: Pick<TimelineKeeper, 'receive'>;
  /** The page's trust boundary: which frames' commands count, and each tab's quotas. */
  guard: Pick<PageGuard, 'admitCommand' | 'admitSteps' | 'admitError' | 'admitTimeline'>;
  debuggerState(tabId: number): { attached: boolean };
  /** Called for every tab a message comes from, so the platform can attach its debugger. */
  watchTab(tabId: number): void;
  /**
   * Whether the tab is in the recording scope (every tab without it). A tab outside it has its steps,
   * page commands and error reports dropped; only its sensitive regions are kept (not stored: they
   * mask its frames at once should it enter the scope).
   */
  recordsTab?(tabId: number): boolean;
  /** The recorder's start while it has not finished (see `Recorder.untilStarted`), else null. */
  untilStarted(): Promise<void> | null;
  log(message: string): void;
}

/**
 * The content scripts' messages: validated, then routed to the steps, the sensitive regions, the
 * agent's commands or the signals. Pages are untrusted: commands count only from the top frame (or
 * an allow-listed origin's), and each tab's steps, commands and error reports are held to its quota.
 */
export class MessageIntake {
  private readonly malformed: MalformedMessageLog;

  constructor(private readonly ports: MessageIntakePorts) {
    this.malformed = new MalformedMessageLog(ports.clock, ports.log);
  }

  /**
   * A message from a content script. Anything that does not parse is dropped with a warning; a batch
   * of steps with an invalid one keeps its valid steps (content scripts do not validate what they send).
   */
  async handleMessage(raw: unknown, origin: MessageOrigin): Promise<void> {
    const chars = timelineChars(raw);
    if (chars > TIMELINE_LIMITS.messageChars) {
      this.malformed.dropped(origin.tabId, `: a DOM timeline message over ${TIMELINE_LIMITS.messageChars} characters`);
      return;
    }
    // Before it is parsed: the parse and what the keeper does with it cost in proportion to its size.
    if (chars > 0 && !this.ports.guard.admitTimeline(origin.tabId, chars)) return;
    const parsed = ToBackgroundMessageSchema.safeParse(raw);
    let message: ToBackgroundMessage;
    if (parsed.success) message = parsed.data;
    else {
      const steps = validStepsOf(raw);
      this.malformed.dropped(origin.tabId, `${steps.length ? ` (kept ${steps.length} of its steps)` : ''}: ${describeZodError(parsed.error)}`);
      if (!steps.length) return;
      message = { type: 'step/batch', steps };
    }
    if (origin.tabId !== null) this.ports.watchTab(origin.tabId);
    // A page's regions hold for its document, whatever the settings: taken at once, before a
    // navigation that may follow forgets them (taken after it, they would mask the next page).
    if (message.type !== 'redaction/rects') {
      const starting = this.ports.untilStarted();
      if (starting) await starting;
    }
    if (message.type !== 'redaction/rects' && origin.tabId !== null && this.ports.recordsTab?.(origin.tabId) === false) return;
    await this.route(message, origin);
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.malformed.forget(tabId);
  }

  private async route(message: ToBackgroundMessage, origin: MessageOrigin): Promise<void> {
    if (message.type === 'step/observed' || message.type === 'step/batch') return this.observed(message.type === 'step/batch' ? message.steps : [message], origin);
    if (message.type === 'timeline/start' || message.type === 'timeline/base-part' || message.type === 'timeline/entries') return this.timeline(message, origin);
    const { clock } = this.ports;
    const ts = reconcileTimestamp(message.ts, clock.now());
    switch (message.type) {
      case 'redaction/rects':
        if (origin.tabId !== null && origin.frameId === 0) this.ports.frames.updateRegions(origin.tabId, message);
        return;
      case 'agent/command':
        if (!this.ports.guard.admitCommand(origin.tabId, origin, this.ports.mode.settings.pageCommandFrameOrigins)) return;
        await this.ports.commands.run(message.command, {
          tabId: origin.tabId,
          url: message.url,
          ts,
          origin: 'page',
          frameId: origin.frameId,
          // Only the top frame records the DOM timeline: a frame inside the page names no checkpoint of it.
          ...(message.checkpoint && origin.frameId === 0 ? { checkpoint: message.checkpoint } : {}),
        });
        return;
      case 'signal/page-error':
        // The debugger reports the same exception with a better stack; the page's own report is the fallback.
        if (origin.tabId !== null && this.ports.debuggerState(origin.tabId).attached) return;
        if (!this.ports.guard.admitError(origin.tabId)) return;
        await this.ports.signals.handleSignal({
          kind: 'exception',
          tabId: origin.tabId,
          pageUrl: message.url,
          // Dated when thrown, up to a minute before: the relay, the port and a worker starting may come in between.
          ts: reconcileTimestamp(message.ts, clock.now(), ECHO_KEPT_MS),
          message: message.kind === 'unhandledrejection' ? `Uncaught (in promise): ${message.message}` : message.message,
          stack: message.stack,
          request: null,
          origin: 'page_fallback',
        });
        return;
    }
  }

  /**
   * A top frame's DOM timeline (capture level `trace` and up): only the top frame's own content
   * script speaks for the page's DOM, so a frame inside it cannot forge the page.
   */
  private async timeline(message: TimelineMessage, origin: MessageOrigin): Promise<void> {
    const { mode, timeline } = this.ports;
    if (!timeline || origin.tabId === null || !mode.recordsDom) return;
    if (origin.frameId !== 0) {
      this.malformed.dropped(origin.tabId, `: a DOM timeline from frame ${origin.frameId} (only the top frame's counts)`);
      return;
    }
    await timeline.receive(origin.tabId, message);
  }

  /** Steps a page observed, one or a batch of a quick run, in the order they happened. */
  private async observed(messages: readonly StepObservedMessage[], origin: MessageOrigin): Promise<void> {
    const { clock, mode, stepLog, frames } = this.ports;
    if (!mode.recordsTimeline) return;
    const admitted = this.ports.guard.admitSteps(origin.tabId, messages);
    if (admitted.length === 0) return;
    const received = clock.now();
    const steps = await stepLog.addAll(admitted.map((m) => observedStep(m, reconcileTimestamp(m.ts, received), origin.tabId, origin.frameId)));
    if (origin.tabId === null) return;
    const capture = mode.settings.captureOnAction;
    for (const step of steps) {
      // A document loading is no action of the agent's (each frame of a page reports its own): no burst.
      // Nor is an event the page's script dispatched: it takes no frame and holds no screencast.
      const action = step.kind !== 'navigate' && !step.synthetic;
      frames.handleAction(origin.tabId, step.ts, { capture: capture && !step.synthetic, action });
    }
  }
}

/**
 * A timeline message's length as JSON, measured before it is parsed (a DOM holds any amount of
 * text): 0 for any other message, past the bound for one that cannot be serialized.
 */
function timelineChars(raw: unknown): number {
  const type = (raw as { type?: unknown } | null)?.type;
  if (type !== 'timeline/start' && type !== 'timeline/base-part' && type !== 'timeline/entries') return 0;
  try {
    return JSON.stringify(raw).length;
  } catch {
    return Infinity;
  }
}

/** The steps of a malformed `step/batch` that are valid on their own, at most a batch's worth. */
export function validStepsOf(raw: unknown): StepObservedMessage[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const { type, steps } = raw as { type?: unknown; steps?: unknown };
  if (type !== 'step/batch' || !Array.isArray(steps)) return [];
  return steps.slice(0, STEP_BATCH_MAX).flatMap((step: unknown) => {
    const parsed = StepObservedMessageSchema.safeParse(step);
    return parsed.success ? [parsed.data] : [];
  });
}
