import { UploadSettingsSchema, type UploadSettings } from '../../schemas/upload';
import { errorMessage } from '../shared/error-message';
import { h } from './dom';
import type { UiPorts } from './ports';

/**
 * "Test connection" under the upload fields: tries the upload block as the form holds it (saved or
 * not; a masked secret stands for the one in force) with a probe object, and shows what the store said.
 */
export function createUploadTest(ports: UiPorts, readUpload: () => unknown): HTMLElement {
  const button = h('button', { attrs: { type: 'button' }, className: 'secondary', data: { testid: 'test-upload' } }, 'Test connection');
  const result = h('div', { className: 'upload-test', attrs: { role: 'status', 'aria-live': 'polite' }, data: { testid: 'test-upload-result' } });
  const show = (text: string, ok: boolean) => {
    result.textContent = text;
    result.className = `upload-test ${ok ? 'ok' : 'error'}`;
  };
  button.addEventListener('click', async () => {
    const parsed = UploadSettingsSchema.safeParse(readUpload());
    if (!parsed.success) return show('Fix the marked fields first.', false);
    button.disabled = true;
    result.textContent = 'Testing…';
    try {
      const answer = await ports.call('testUpload', { upload: parsed.data as UploadSettings });
      show(answer.message, answer.ok);
    } catch (error) {
      show(`The test could not run: ${errorMessage(error)}`, false);
    } finally {
      button.disabled = false;
    }
  });
  return h('div', { className: 'field upload-test-row' }, button, result);
}
