import type { BundleSummary } from '../../schemas/api';
import { h } from './dom';
import { errorMessage } from '../shared/error-message';
import type { UiPorts } from './ports';

/** Where a bundle action reports back: a line of text, an error or not. */
export type Notify = (text: string, isError?: boolean) => void;

/** "Open in viewer": a link to `viewer.html?id=` in a new tab. */
export function viewerLink(ports: UiPorts, id: string, text = 'Open in viewer'): HTMLAnchorElement {
  return h('a', { className: 'button-link', attrs: { href: ports.viewerUrl(id), target: '_blank', rel: 'noopener' }, data: { testid: 'open-viewer' } }, text);
}

/** "Download": saves `agent-flight-recorder/<id>.zip` through the background. */
export function downloadButton(ports: UiPorts, bundle: BundleSummary, notify: Notify): HTMLButtonElement {
  const button = h('button', { attrs: { type: 'button' }, className: 'secondary', data: { testid: 'download' } }, 'Download');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await ports.call('downloadBundle', bundle.id);
      notify(`Downloading agent-flight-recorder/${bundle.id}.zip`);
    } catch (error) {
      notify(`Download of ${bundle.id} failed: ${errorMessage(error)}`, true);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
