import { settingsForReadBack } from '../settings/settings-store';
import { ChooseTabInputSchema, PreviewRedactionInputSchema, SaveBundleInputSchema, type BundleSummary, type RedactionPreview, type Status } from '../../schemas/api';
import type { UiApiMessage, UiApiResult } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import { keepMaskedSecrets, TestUploadInputSchema, type UploadProbeResult } from '../../schemas/upload';
import { errorMessage } from '../shared/error-message';
import { explicitSignal } from '../signals/normalize-signal';
import { parseInput } from './input-checks';
import type { Recorder } from './recorder';

/** The calls of the operator pages (popup, options, library), one per `ui/api` method. */
export interface OperatorApi {
  status(): Promise<Status>;
  pause(): Promise<Status>;
  resume(): Promise<Status>;
  saveBundle(input?: unknown): Promise<string>;
  listBundles(): Promise<BundleSummary[]>;
  exportBundle(id: unknown): Promise<string>;
  deleteBundle(id: unknown): Promise<boolean>;
  downloadBundle(id: unknown): Promise<number>;
  getSettings(): Promise<Settings>;
  configure(patch: unknown): Promise<Settings>;
  previewRedaction(input: unknown): Promise<RedactionPreview>;
  chooseTab(input: unknown): Promise<Status>;
  testUpload(input: unknown): Promise<UploadProbeResult>;
  managedSettings(): Promise<string[]>;
}

/** What the operator API drives. */
export type OperatorTarget = Pick<Recorder, 'ports' | 'failures' | 'storedBundles' | 'tabFor' | 'status' | 'setPaused' | 'chooseTab'>;

/** The operator's calls on the recorder; every input is validated here. */
export function createOperatorApi(recorder: OperatorTarget): OperatorApi {
  return {
    status: () => recorder.status(),
    /** Stops recording (frames, steps, signals) until `resume`; the ring and bundles are kept. */
    pause: async () => {
      await recorder.setPaused(true);
      return recorder.status();
    },
    resume: async () => {
      await recorder.setPaused(false);
      return recorder.status();
    },
    /** A bundle on the operator's request (reason `manual`), whatever the persist mode and cooldown. */
    saveBundle: async (input = {}) => {
      const { tabId } = parseInput(SaveBundleInputSchema, input ?? {}, 'saveBundle');
      const ts = recorder.ports.clock.now();
      const tab = await recorder.tabFor(tabId);
      const signal = explicitSignal({ ...tab, ts, reason: 'manual', label: 'saved by the operator', origin: 'operator' });
      const bundle = await recorder.failures.trigger(signal, { explicit: true });
      if (!bundle) throw new Error('saveBundle: the bundle was not written');
      return bundle.id;
    },
    listBundles: () => recorder.storedBundles.list(),
    exportBundle: (id) => recorder.storedBundles.export(id),
    deleteBundle: (id) => recorder.storedBundles.delete(id),
    downloadBundle: (id) => recorder.storedBundles.saveToDownloads(id),
    getSettings: async () => settingsForReadBack(recorder.ports.settingsStore.get()),
    configure: async (patch) => settingsForReadBack(await recorder.ports.settingsStore.update(patch)),
    /** What the given custom rules, with the built-in ones, would mask on a tab. */
    previewRedaction: async (input) => {
      const { tabId, rules } = parseInput(PreviewRedactionInputSchema, input, 'previewRedaction');
      return recorder.ports.previewRedaction(tabId, rules);
    },
    /** "Test connection": the upload settings of the form (a masked secret: the one in force) tried with a probe object. */
    testUpload: async (input) => {
      const { upload } = parseInput(TestUploadInputSchema, input, 'testUpload');
      const delivery = recorder.ports.delivery;
      if (!delivery) return { ok: false, message: 'This recorder has no delivery.' };
      return delivery.probe(keepMaskedSecrets(upload, recorder.ports.settingsStore.get().upload));
    },
    /** The top-level settings enterprise policy sets: the options page shows them read-only. */
    managedSettings: async () => [...recorder.ports.settingsStore.managedKeys()],
    /** "Record this tab": with `scope: 'chosen'` the tab is recorded from now on (or no longer). */
    chooseTab: async (input) => {
      const { tabId, chosen } = parseInput(ChooseTabInputSchema, input, 'chooseTab');
      await recorder.chooseTab(tabId, chosen);
      return recorder.status();
    },
  };
}

/**
 * Answers an operator page's `ui/api` message. Every failure is answered with its message, never
 * thrown across the messaging boundary.
 */
export async function handleUiCall(api: OperatorApi, ready: () => Promise<void>, message: UiApiMessage): Promise<UiApiResult> {
  const [first] = message.args;
  try {
    await ready();
    // Every method takes at most one argument; this fails to compile if a `ui/api` method has no call here.
    const call: (input?: unknown) => Promise<unknown> = api[message.method];
    return { ok: true, value: (await call(first)) ?? null };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}
