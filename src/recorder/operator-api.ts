import type { UiApiMessage, UiApiResult } from '../../schemas/messages';
import type { Recorder } from './recorder';
import { errorMessage } from '../shared/error-message';

/**
 * The operator pages' calls (`ui/api` messages) on the recorder. Every failure is answered with its
 * message, never thrown across the messaging boundary.
 */
export async function handleUiCall(recorder: Recorder, ready: () => Promise<void>, message: UiApiMessage): Promise<UiApiResult> {
  const [first] = message.args;
  try {
    await ready();
    const calls: Record<UiApiMessage['method'], () => Promise<unknown>> = {
      status: () => recorder.status(),
      pause: () => recorder.pause(),
      resume: () => recorder.resume(),
      saveBundle: () => recorder.saveBundle(first),
      listBundles: () => recorder.listBundles(),
      exportBundle: () => recorder.exportBundle(first),
      deleteBundle: () => recorder.deleteBundle(first),
      downloadBundle: () => recorder.downloadBundle(first),
      getSettings: async () => recorder.settingsSnapshot(),
      configure: () => recorder.configure(first),
      previewRedaction: () => recorder.previewRedaction(first),
    };
    return { ok: true, value: (await calls[message.method]()) ?? null };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}
