// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { describeLibrary, mountLibrary } from './library-page';
import { fakePorts, makeBundle, settle } from '../../test/fakes/ui-data';

const rowIds = () => [...document.querySelectorAll<HTMLElement>('[data-testid="bundles"] tbody tr')].map((tr) => tr.dataset.bundleId);
const byTestId = <T extends HTMLElement>(testid: string) => document.querySelector<T>(`[data-testid="${testid}"]`)!;

describe('describeLibrary', () => {
  const all = [makeBundle({ id: 'a', sizeBytes: 2048 }), makeBundle({ id: 'b', sizeBytes: 1024 })];
  it('says what is stored', () => expect(describeLibrary(all, all)).toBe('2 bundles stored, 3 KiB in all.'));
  it('and what the filter shows', () => expect(describeLibrary(all, all.slice(1))).toBe('2 bundles stored, 3 KiB in all; 1 shown (1 KiB).'));
});

describe('library page', () => {
  let stored: BundleSummary[];
  beforeEach(() => {
    document.body.replaceChildren();
    stored = [
      makeBundle({ id: 'afr-3', reason: 'manual', url: 'https://shop.test/cart', label: '<b>bold</b>' }),
      makeBundle({ id: 'afr-2', reason: 'http_5xx', url: 'https://shop.test/checkout/submit' }),
      makeBundle({ id: 'afr-1', reason: 'manual', url: 'https://docs.test/' }),
    ];
  });
  const mount = async (confirm = () => true) => {
    const root = document.body.appendChild(document.createElement('div'));
    const fake = fakePorts(
      {
        listBundles: () => stored,
        getSettings: () => DEFAULT_SETTINGS,
        deleteBundle: (id) => {
          const before = stored.length;
          stored = stored.filter((b) => b.id !== id);
          return stored.length < before;
        },
      },
      { confirm },
    );
    await mountLibrary(root, fake.ports);
    return fake;
  };

  it('lists every bundle, newest first, with the totals and the store limits', async () => {
    await mount();
    expect(rowIds()).toEqual(['afr-3', 'afr-2', 'afr-1']);
    expect(byTestId('library-summary').textContent).toBe('3 bundles stored, 600 KiB in all.');
    expect(byTestId('library-limits').textContent).toContain('at most 20 bundles and 512.0 MiB, each for 30 days');
    expect(document.querySelector('b')).toBeNull(); // labels are text
    expect([...byTestId<HTMLSelectElement>('filter-reason').options].map((o) => o.value)).toEqual(['', 'http_5xx', 'manual']);
  });

  it('filters by reason and URL', async () => {
    await mount();
    const reason = byTestId<HTMLSelectElement>('filter-reason');
    reason.value = 'manual';
    reason.dispatchEvent(new Event('change'));
    expect(rowIds()).toEqual(['afr-3', 'afr-1']);
    const url = byTestId<HTMLInputElement>('filter-url');
    url.value = 'shop';
    url.dispatchEvent(new Event('input'));
    expect(rowIds()).toEqual(['afr-3']);
    expect(byTestId('library-summary').textContent).toBe('3 bundles stored, 600 KiB in all; 1 shown (200 KiB).');
    url.value = 'nothing';
    url.dispatchEvent(new Event('input'));
    expect(byTestId('library-empty').textContent).toBe('No bundle matches the filter.');
    byTestId('filter-clear').click();
    expect(rowIds()).toEqual(['afr-3', 'afr-2', 'afr-1']);
  });

  it('deletes only after the operator confirms', async () => {
    let answer = false;
    const { calls } = await mount(() => answer);
    const deleteButton = () => document.querySelector<HTMLButtonElement>('tr[data-bundle-id="afr-2"] [data-testid="delete"]')!;
    deleteButton().click();
    await settle();
    expect(calls.some((c) => c[0] === 'deleteBundle')).toBe(false);
    answer = true;
    deleteButton().click();
    await settle();
    expect(calls).toContainEqual(['deleteBundle', 'afr-2']);
    expect(rowIds()).toEqual(['afr-3', 'afr-1']);
    expect(byTestId('library-message').textContent).toBe('Deleted afr-2.');
    expect([...byTestId<HTMLSelectElement>('filter-reason').options].map((o) => o.value)).toEqual(['', 'manual']);
  });
});
