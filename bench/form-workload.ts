import type { Page } from 'playwright-core';
import type { SiteServer } from '../e2e/support/site-server';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The agent workload of the slowdown figures (`npm run bench` section 3, `npm run bench:upload`
 * section 3): 200 actions on the checkout form, `thinkMs` between them; resolves with the wall time in ms.
 */
export async function formWorkload(page: Page, site: SiteServer, thinkMs: number): Promise<number> {
  await page.goto(`${site.origin}/checkout.html`);
  let actions = 0;
  const act = async (action: Promise<unknown>) => {
    await action;
    actions++;
    if (thinkMs > 0) await pause(thinkMs);
  };
  const t = performance.now();
  for (let round = 0; round < 25; round++) {
    await act(page.fill('#full-name', `Jane Doe ${round}`));
    await act(page.fill('#email', `jane${round}@example.com`));
    await act(page.fill('#phone', `+1 415 555 01${String(round).padStart(2, '0')}`));
    await act(page.fill('#card-number', '4111 1111 1111 1111'));
    await act(page.fill('#card-cvc', '123'));
    await act(page.fill('#notes', `round ${round}`));
    await act(page.press('#notes', 'Tab'));
    await act(page.click('h1'));
  }
  const ms = performance.now() - t;
  if (actions < 200) throw new Error('workload too small');
  return ms;
}
