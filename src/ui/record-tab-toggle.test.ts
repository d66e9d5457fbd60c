// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import type { Status } from '../../schemas/api';
import { mountPopup } from './popup-page';
import { describeTabScope } from './record-tab-toggle';
import { fakePorts, makeStatus, settle } from '../../test/fakes/ui-data';

const cart = { tabId: 7, url: 'https://shop.test/cart', title: 'Cart' };
const scope = (over: Partial<Status['scope']> = {}): Status['scope'] => ({ mode: 'chosen', origins: [], recordedTabs: [], agentTabs: [], chosenTabs: [], ...over });

describe('the popup’s scope line', () => {
  it.each([
    [scope({ mode: 'all' }), cart, 'Scope: every tab is recorded.'],
    [scope({ mode: 'agent' }), cart, 'Scope: tabs an agent drives. This tab is not recorded.'],
    [scope({ mode: 'agent', recordedTabs: [7], agentTabs: [7] }), cart, 'Scope: tabs an agent drives. This tab is recorded (the agent drives it).'],
    [scope({ recordedTabs: [7], chosenTabs: [7] }), cart, 'Scope: chosen tabs. This tab is recorded (you chose it).'],
    [scope({ recordedTabs: [7], origins: ['https://shop.test'] }), cart, 'Scope: chosen tabs. This tab is recorded (its origin is in the allow-list).'],
    [scope(), null, 'Scope: chosen. No web page is visible.'],
  ])('%j, %j → %s', (s, tab, line) => expect(describeTabScope(s, tab)).toBe(line));
});

describe('the popup’s "Record this tab" toggle', () => {
  let root: HTMLElement;
  let stop: () => void = () => undefined;
  let status: Status;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.replaceChildren(root);
  });
  afterEach(() => stop());

  const api = () => ({
    status: () => status,
    getSettings: () => DEFAULT_SETTINGS,
    listBundles: () => [],
    chooseTab: (input: unknown) => {
      const { tabId, chosen } = input as { tabId: number; chosen: boolean };
      status = makeStatus({ scope: scope({ chosenTabs: chosen ? [tabId] : [], recordedTabs: chosen ? [tabId] : [] }) });
      return status;
    },
  });
  const box = () => root.querySelector<HTMLInputElement>('[data-testid="record-tab"]')!;
  const label = () => root.querySelector<HTMLElement>('[data-testid="record-tab-label"]')!;

  it('chooses the visible tab and lets it go again', async () => {
    status = makeStatus({ scope: scope(), tabs: [{ ...makeStatus().tabs[0]!, recorded: false }] });
    const { ports, calls } = fakePorts(api());
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    expect(label().hidden).toBe(false);
    expect(box().checked).toBe(false);
    expect(root.querySelector('[data-testid="not-recorded"]')).not.toBeNull();
    box().checked = true;
    box().dispatchEvent(new Event('change'));
    await settle();
    expect(calls).toContainEqual(['chooseTab', { tabId: 7, chosen: true }]);
    expect(box().checked).toBe(true);
    expect(root.querySelector('[data-testid="scope"]')!.textContent).toBe('Scope: chosen tabs. This tab is recorded (you chose it).');
    box().checked = false;
    box().dispatchEvent(new Event('change'));
    await settle();
    expect(calls).toContainEqual(['chooseTab', { tabId: 7, chosen: false }]);
    expect(box().checked).toBe(false);
  });

  it('is hidden under the other scopes', async () => {
    status = makeStatus({ scope: scope({ mode: 'agent' }) });
    const { ports } = fakePorts(api());
    stop = mountPopup(root, ports, { intervalMs: 60_000 });
    await settle();
    expect(label().hidden).toBe(true);
  });
});
