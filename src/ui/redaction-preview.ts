import type { RedactionPreview } from '../../schemas/api';
import type { RedactionRules } from '../../schemas/settings';
import { h } from './dom';
import { errorMessage } from '../shared/error-message';
import type { UiPorts } from './ports';
import { plural } from './format';

/**
 * "Test on the current tab": asks the background what the rules being edited (not yet saved), plus the
 * built-in ones, would mask on a web tab. `readRules` answers null when the rules do not validate.
 */
export function createRedactionPreview(ports: UiPorts, readRules: () => RedactionRules | null): HTMLElement {
  const select = h('select', { attrs: { 'aria-label': 'Tab to test on' }, data: { testid: 'preview-tab' } });
  const result = h('div', { className: 'preview-result', data: { testid: 'preview-result' } });
  const run = h('button', { attrs: { type: 'button' }, data: { testid: 'preview-run' } }, 'Test on the current tab');

  const loadTabs = async () => {
    const tabs = await ports.listWebTabs().catch(() => []);
    select.replaceChildren(...tabs.map((t) => h('option', { attrs: { value: String(t.tabId) } }, `${t.title || t.url} \u2014 ${t.url}`)));
    run.disabled = select.hidden = tabs.length === 0;
    if (tabs.length === 0) result.replaceChildren(h('p', { className: 'muted' }, 'No http(s) tab is open to test on.'));
  };

  run.addEventListener('click', async () => {
    const rules = readRules();
    if (!rules) {
      result.replaceChildren(h('p', { className: 'error', attrs: { role: 'alert' } }, 'Fix the marked rules first.'));
      return;
    }
    run.disabled = true;
    result.replaceChildren(h('p', { className: 'muted' }, 'Testing\u2026'));
    try {
      const preview = await ports.call('previewRedaction', { tabId: Number(select.value), rules });
      result.replaceChildren(...renderPreview(preview));
    } catch (error) {
      result.replaceChildren(h('p', { className: 'error', attrs: { role: 'alert' } }, `Preview failed: ${errorMessage(error)}`));
    } finally {
      run.disabled = false;
    }
  });

  const reload = h('button', { attrs: { type: 'button' }, className: 'secondary', on: { click: () => void loadTabs() } }, 'Reload tabs');
  void loadTabs();
  return h(
    'div',
    { className: 'preview' },
    h('h3', null, 'Test the rules'),
    h('p', { className: 'field-hint' }, 'Shows what the rules above (saved or not) and the built-in ones would mask on a tab. Nothing is recorded.'),
    h('div', { className: 'row' }, select, reload, run),
    result,
  );
}

function renderPreview(preview: RedactionPreview): Node[] {
  const shown = preview.matches.length;
  const summary = h(
    'p',
    { data: { testid: 'preview-summary' } },
    `${plural(preview.total, 'element')} would be masked${shown < preview.total ? ` (first ${shown} listed)` : ''}.`,
  );
  const problems = preview.problems.map((p) => h('p', { className: 'error', data: { testid: 'preview-problem' } }, p));
  if (shown === 0) return [summary, ...problems];
  const rows = preview.matches.map((m) =>
    h('tr', null, h('td', null, h('code', null, m.tag)), h('td', null, h('code', null, m.selector)), h('td', null, m.reason), h('td', null, m.sample)),
  );
  const table = h(
    'table',
    { className: 'list', data: { testid: 'preview-matches' } },
    h('thead', null, h('tr', null, h('th', null, 'Element'), h('th', null, 'Selector'), h('th', null, 'Why'), h('th', null, 'As recorded'))),
    h('tbody', null, ...rows),
  );
  return [summary, ...problems, table];
}
