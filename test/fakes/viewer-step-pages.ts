import { StepsFileSchema, type Step } from '../../schemas/steps';
import { StepSnapshotFileSchema, type StepChanges, type StepSnapshotFile, type TimelineNode } from '../../schemas/timeline';
import type { BundleData } from '../../src/bundle-format/bundle-data';
import { HOSTILE, T0, makeBundleData } from './viewer-bundle';

// The readers' small bundle (`viewer-bundle.ts`) with a DOM timeline: the pages at the two typing
// steps and at the click on "Place order" (`snapshots/*.json`), each step's target (node, rect,
// point) and what it changed. Every file is checked against its schema here, so a test cannot pass
// on data the recorder could not write.

export const BUNDLE_ID = 'afr-20261122T120000Z-abcdef';
/** Timeline ids in the checkout page. */
export const NODE = { body: 1, main: 2, form: 3, row: 4, password: 5, name: 6, note: 7, button: 8 } as const;
/** Where "Place order" was on screen and where the pointer hit it, in CSS px. */
export const BUTTON_RECT = { x: 400, y: 300, width: 160, height: 40 };
export const CLICK_POINT = { x: 480, y: 320 };

function checkoutPage(name: string | null): TimelineNode {
  return {
    id: NODE.body,
    tag: 'body',
    children: [
      {
        id: NODE.main,
        tag: 'main',
        children: [
          {
            id: NODE.form,
            tag: 'form',
            attributes: { id: 'checkout' },
            children: [
              {
                id: NODE.row,
                tag: 'div',
                children: [
                  { id: NODE.password, tag: 'input', role: 'textbox', name: 'Password', attributes: { type: 'password', id: 'pw' }, value: null, value_redacted: true, redaction_kind: 'password' },
                  { id: NODE.name, tag: 'input', role: 'textbox', name: 'Name', attributes: { type: 'text', id: 'name' }, value: name ?? '' },
                ],
              },
              { id: NODE.note, tag: 'p', text: `Delivery note ${HOSTILE}` },
              { id: NODE.button, tag: 'button', role: 'button', name: 'Place order', attributes: { id: 'place-order' }, text: 'Place order' },
            ],
          },
        ],
      },
    ],
  };
}

const errorPage = (): TimelineNode => ({ id: 1, tag: 'body', children: [{ id: 2, tag: 'h1', role: 'heading', name: 'Internal Server Error', text: 'Internal Server Error' }] });

function page(checkpoint: number, label: string, at: number, root: TimelineNode, url = 'https://shop.test/checkout'): StepSnapshotFile {
  const count = (n: TimelineNode): number => 1 + (n.children ?? []).reduce((sum, c) => sum + count(c), 0);
  return StepSnapshotFileSchema.parse({
    version: 1,
    bundle_id: BUNDLE_ID,
    snapshot: { document_id: url === 'https://shop.test/checkout' ? 'doc-1' : 'doc-2', checkpoint, label, at, url, title: 'Checkout', changes: checkpoint, node_count: count(root), truncated: false, root },
  });
}

const emptyDiff = (from: number, to: number) => ({ from_checkpoint: from, to_checkpoint: to, new_document: false, added: [], removed: [], text: [], attributes: [], values: [] });

/** The files of `snapshots/`, by zip path. */
export function makeStepPages(): Map<string, StepSnapshotFile> {
  return new Map([
    ['snapshots/page-001.json', page(1, 'type', T0 - 2050, checkoutPage(null))],
    ['snapshots/page-002.json', page(2, 'type', T0 - 1950, checkoutPage(null))],
    ['snapshots/page-003.json', page(3, 'click', T0 - 900, checkoutPage('Jane'))],
    ['snapshots/page-004.json', page(0, 'failure', T0 - 10, errorPage(), 'https://shop.test/checkout/submit')],
  ]);
}

const PASSWORD_CHANGES: StepChanges = {
  to: 'snapshots/page-002.json',
  description: 'after typing into Password: the value of input "Password" changed (redacted)',
  diff: { ...emptyDiff(1, 2), values: [{ id: NODE.password, tag: 'input', label: 'Password', redacted: true, from: null, to: null }] },
};
const NAME_CHANGES: StepChanges = {
  to: 'snapshots/page-003.json',
  description: 'after typing into Name: input "Name" now reads "Jane"',
  diff: { ...emptyDiff(2, 3), values: [{ id: NODE.name, tag: 'input', label: 'Name', redacted: false, from: '', to: 'Jane' }] },
};
/** What clicking "Place order" changed: the form gave way to the server's error page. */
export const CLICK_CHANGES: StepChanges = {
  to: 'snapshots/page-004.json',
  description: 'after clicking Place order: the form disappeared, an h1 "Internal Server Error" appeared',
  diff: {
    ...emptyDiff(3, 0),
    new_document: true,
    url: { from: 'https://shop.test/checkout', to: 'https://shop.test/checkout/submit' },
    removed: [{ id: NODE.form, tag: 'form', label: 'checkout', size: 6, notable: [{ tag: 'button', role: 'button', label: 'Place order' }] }],
    added: [{ id: 2, tag: 'h1', role: 'heading', label: 'Internal Server Error', size: 1, parent: 1 }],
    text: [{ id: NODE.note, tag: 'p', from: 'Delivery note', to: HOSTILE }],
  },
};

/** `makeBundleData()` whose steps reference their pages, targets and changes; the failure page names the page before it. */
export function makeTimelineBundleData(): BundleData {
  const data = makeBundleData();
  const place = (step: Step, fields: Partial<Step>, node: number, rect = { x: 40, y: 120, width: 240, height: 28 }, point?: { x: number; y: number }): Step => ({
    ...step,
    ...fields,
    target: typeof step.target === 'object' && step.target !== null ? { ...step.target, node, rect, ...(point ? { point } : {}) } : step.target,
  });
  const [navigate, password, name, agent, click, signal] = data.steps.steps as [Step, Step, Step, Step, Step, Step];
  const steps = [
    navigate,
    place(password, { snapshot: 'snapshots/page-001.json', checkpoint: { document_id: 'doc-1', seq: 1 }, changes: PASSWORD_CHANGES }, NODE.password),
    place(name, { snapshot: 'snapshots/page-002.json', checkpoint: { document_id: 'doc-1', seq: 2 }, changes: NAME_CHANGES }, NODE.name),
    agent,
    place(click, { snapshot: 'snapshots/page-003.json', checkpoint: { document_id: 'doc-1', seq: 3 }, changes: CLICK_CHANGES }, NODE.button, BUTTON_RECT, CLICK_POINT),
    signal,
  ];
  data.steps = StepsFileSchema.parse({ ...data.steps, steps });
  data.snapshot = { ...data.snapshot!, previous: 'snapshots/page-003.json' };
  return data;
}
