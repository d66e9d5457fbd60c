import type { Page, Worker } from 'playwright-core';
import { afr } from '../e2e/support/afr';
import type { SiteServer } from '../e2e/support/site-server';
import { pause } from './support';

/** One action every this many ms (when an action takes longer, the next one follows at once). */
export const SOAK_ACTION_MS = 250;
/** A fresh document every this many actions (~10 s). */
const ACTIONS_PER_DOCUMENT = 40;

export interface SoakAgentCounts {
  actions: number;
  /** Agent steps and marks sent through the worker's `afr` (each asks the page for a checkpoint). */
  agentSteps: number;
  navigations: number;
  /** Actions that threw (logged once each, the agent goes on). */
  errors: number;
}

export interface SoakAgent {
  readonly counts: SoakAgentCounts;
  /** Stops after the action under way. */
  stop(): Promise<void>;
}

/**
 * A scripted agent on the order desk (`e2e/site/order-desk.html`), acting every `SOAK_ACTION_MS`:
 * typing a customer, an email and a password (so the page side redacts), clicks that add and remove
 * table rows, agent steps and marks through the worker's API, and a fresh document every
 * `ACTIONS_PER_DOCUMENT` actions.
 */
export function startSoakAgent(page: Page, worker: Worker, site: SiteServer): SoakAgent {
  const counts: SoakAgentCounts = { actions: 0, agentSteps: 0, navigations: 0, errors: 0 };
  let stopped = false;
  const actions: ((i: number) => Promise<unknown>)[] = [
    (i) => page.fill('#customer', `Jane Doe ${i}`),
    (i) => page.fill('#email', `jane.doe${i}@example.com`),
    (i) => page.fill('#account-password', `hunter-${i}-secret`),
    () => page.click('#add-order'),
    (i) => page.fill('#notes', `leave at the door, visit ${i}`),
    () => page.click('#add-order'),
    async (i) => {
      await afr(worker, 'step', { action: 'review the open orders', label: `review ${i}`, outcome: 'ok' });
      counts.agentSteps++;
    },
    () => page.click('#close-oldest'),
    () => page.click('#close-oldest'),
    async (i) => {
      await afr(worker, 'mark', { label: `desk checked ${i}` });
      counts.agentSteps++;
    },
  ];
  const run = async () => {
    await page.goto(`${site.origin}/order-desk.html`);
    const start = Date.now();
    for (let i = 0; !stopped; i++) {
      const due = start + i * SOAK_ACTION_MS;
      if (due > Date.now()) await pause(due - Date.now());
      try {
        if (i > 0 && i % ACTIONS_PER_DOCUMENT === 0) {
          await page.goto(`${site.origin}/order-desk.html?visit=${i}`);
          counts.navigations++;
        } else await actions[i % actions.length]!(i);
        counts.actions++;
      } catch (error) {
        counts.errors++;
        console.warn(`   soak agent: action ${i} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    }
  };
  const done = run();
  return {
    counts,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
