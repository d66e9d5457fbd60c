import type { Status } from '../../schemas/api';
import { errorMessage } from '../shared/error-message';
import { h } from './dom';
import type { UiPorts } from './ports';
import type { WebTab } from './tab-choice';

/** What the popup says of the visible tab under the scope in force. */
export function describeTabScope(scope: Status['scope'], tab: WebTab | null): string {
  if (scope.mode === 'all') return 'Scope: every tab is recorded.';
  if (!tab) return `Scope: ${scope.mode}. No web page is visible.`;
  const recorded = scope.recordedTabs.includes(tab.tabId);
  if (scope.mode === 'agent') return `Scope: tabs an agent drives. This tab is ${recorded ? 'recorded (the agent drives it)' : 'not recorded'}.`;
  if (scope.chosenTabs.includes(tab.tabId)) return 'Scope: chosen tabs. This tab is recorded (you chose it).';
  return `Scope: chosen tabs. This tab is ${recorded ? 'recorded (its origin is in the allow-list)' : 'not recorded'}.`;
}

/**
 * The popup's scope line and its "Record this tab" toggle for the visible web tab (shown with
 * `scope: 'chosen'`). `update` follows each status; a change answers with the new status.
 */
export function recordTabToggle(ports: UiPorts, shown: (status: Status) => void, notify: (text: string, isError?: boolean) => void) {
  const line = h('p', { className: 'muted small', data: { testid: 'scope' } });
  const box = h('input', { attrs: { type: 'checkbox' }, data: { testid: 'record-tab' } }) as HTMLInputElement;
  const label = h('label', { className: 'row', data: { testid: 'record-tab-label' } }, box, ' Record this tab');
  let tab: WebTab | null = null;
  box.addEventListener('change', async () => {
    if (!tab) return;
    box.disabled = true;
    try {
      shown(await ports.call('chooseTab', { tabId: tab.tabId, chosen: box.checked }));
    } catch (error) {
      notify(`Not changed: ${errorMessage(error)}`, true);
    } finally {
      box.disabled = false;
    }
  });
  const update = async (status: Status) => {
    tab = await ports.visibleWebTab().catch(() => null);
    line.textContent = describeTabScope(status.scope, tab);
    label.hidden = status.scope.mode !== 'chosen' || tab === null;
    box.checked = tab !== null && status.scope.chosenTabs.includes(tab.tabId);
  };
  return { node: h('div', { data: { testid: 'scope-box' } }, line, label), update };
}
