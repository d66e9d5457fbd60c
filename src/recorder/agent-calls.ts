import { ModelCallInputSchema, ToolCallInputSchema, type AgentCall } from '../../schemas/agent-calls';
import type { StepDraft } from '../../schemas/steps';
import type { Clock } from '../shared/clock';
import type { StepLog } from '../steps/step-log';
import { RecorderInputError, parseInput } from './input-checks';
import { maskModelCall, maskToolCall } from './mask-agent-call';
import type { RecordingMode } from './recording-mode';
import type { RunState } from './run-state';
import { callStep } from './step-drafts';

/** What recording the agent's calls needs. */
export interface AgentCallPorts {
  clock: Clock;
  stepLog: StepLog;
  mode: Pick<RecordingMode, 'masker' | 'recordsTimeline'>;
  run: Pick<RunState, 'runIdOf'>;
  /** The tab a call is about, with its URL (default: the visible recorded tab). */
  tabFor(tabId: number | undefined): Promise<{ tabId: number | null; url: string | null }>;
  recordsTab(tabId: number): boolean;
  /** Told of each call recorded, after it is on the timeline (the agent-side signals). */
  recorded?(step: StepDraft & { seq: number }, call: AgentCall): Promise<void>;
}

/**
 * The agent's model and tool calls (`afr.modelCall`, `afr.toolCall`; agent only: the page protocol has
 * no such message). Each is validated with its caps, masked whole before anything is kept, tied to the
 * agent's current step and run, and put on the timeline as a step holding the call, so it lives in the
 * steps' bounded window and store and a bundle lays it out in `agent.json`.
 */
export class AgentCalls {
  constructor(private readonly ports: AgentCallPorts) {}

  /** Records a tool call; resolves to its step's seq, or null when the timeline is not recorded now. */
  async toolCall(input: unknown): Promise<number | null> {
    const { tabId, ...call } = parseInput(ToolCallInputSchema, input, 'afr.toolCall');
    return this.record('afr.toolCall', tabId, (masker, stepSeq) => maskToolCall(call, masker, stepSeq));
  }

  /** Records a model call; resolves to its step's seq, or null when the timeline is not recorded now. */
  async modelCall(input: unknown): Promise<number | null> {
    const { tabId, ...call } = parseInput(ModelCallInputSchema, input, 'afr.modelCall');
    return this.record('afr.modelCall', tabId, (masker, stepSeq) => maskModelCall(call, masker, stepSeq));
  }

  private async record(name: string, tabId: number | undefined, mask: (masker: RecordingMode['masker'], stepSeq: number | null) => AgentCall): Promise<number | null> {
    const { clock, stepLog, mode, run } = this.ports;
    if (tabId !== undefined && !this.ports.recordsTab(tabId)) throw new RecorderInputError(`${name}: tab ${tabId} is outside the recording scope`);
    const ts = clock.now();
    const tab = await this.tabFor(tabId);
    if (!mode.recordsTimeline) return null;
    // The agent's own latest step (`afr.step`, no frame: not a page's) on this tab or on none.
    const stepSeq = await stepLog.latestSeq((s) => s.source === 'agent' && s.kind === 'agent' && s.frame_id === null && (s.tab_id === tab.tabId || s.tab_id === null));
    const call = mask(mode.masker, stepSeq);
    const draft = callStep(call, ts, tab.tabId, tab.url, run.runIdOf(tab.tabId));
    const step = await stepLog.add(draft);
    await this.ports.recorded?.(step, call);
    return step.seq;
  }

  private tabFor(tabId: number | undefined) {
    return this.ports.tabFor(tabId);
  }
}
