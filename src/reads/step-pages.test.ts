import { describe, expect, it } from 'vitest';
import { makeSecretBundle } from '../../test/fixtures/cli/secret-bundle';
import { readDom, DEFAULT_DOM_OPTIONS } from './dom-outline';
import { openBundle } from './open-bundle';
import { domText, stepText, summaryText } from './render-text';
import { readStep } from './steps';
import { readSummary } from './summary';

// The reads on a bundle with a DOM timeline (written by the recorder's writer): step 4 types into
// "Full name" on snapshots/page-001.json, step 10 clicks "Place order" on snapshots/page-002.json.
const reader = makeSecretBundle().then(openBundle);
const ask = (verb: string, args: Record<string, unknown>) => `afr ${verb} ${JSON.stringify(args)}`;

describe('reads of the pages at the steps', () => {
  it('afr dom --step shows that step’s own page with its target marked', async () => {
    const view = await readDom(await reader, { ...DEFAULT_DOM_OPTIONS, step: 10 });
    expect(view).toMatchObject({ source: 'snapshots/page-002.json', note: null, step: 10 });
    const button = view.nodes.find((n) => n.name === 'Place order');
    expect(view.target).toBe(button?.id);
    expect(view.nodes.filter((n) => n.target)).toEqual([button]);
    const text = domText(view, ask).join('\n');
    expect(text).toContain('from snapshots/page-002.json');
    expect(text).toMatch(/\[\d+\] button#place-order role=button name="Place order".*◀ target/);
    // Step 4's page is the form before typing: the name field is the target, empty.
    const typed = await readDom(await reader, { ...DEFAULT_DOM_OPTIONS, step: 4 });
    expect(typed.nodes.find((n) => n.target)).toMatchObject({ tag: 'input', name: 'Full name', value: '' });
  });

  it('falls back to snapshot.json with a note for a step without a page of its own', async () => {
    const view = await readDom(await reader, { ...DEFAULT_DOM_OPTIONS, step: 2 });
    expect(view).toMatchObject({ source: 'snapshot.json', target: null });
    expect(view.note).toBe('step 2: the bundle holds no page of its own for it; this is the page at the failure (snapshot.json)');
  });

  it('afr step shows the target node from its page, the change in plain words and the diff', async () => {
    const step = await readStep(await reader, 10);
    expect(step.target_node).toMatchObject({ tag: 'button', role: 'button', name: 'Place order', selector: '#place-order' });
    expect(step.change).toMatch(/^after clicking Place order: the form disappeared/);
    const text = stepText(step, ask).join('\n');
    expect(text).toMatch(/target on its page: \[\d+\] button role=button name="Place order" selector="#place-order"/);
    expect(text).toContain('what changed: "after clicking Place order');
    expect(text).toContain('changes: 1 added, 1 removed, 1 text, 0 attributes, 0 values (a new document)');
    // The page's file name as it is, quoted once at most (never "\"snapshots/…\"").
    expect(text).toContain('  page snapshot: snapshots/page-002.json\n');
    expect(step.page_late_ms).toBeNull();
  });

  it('afr step says when a step\u2019s page was taken late, and prints a hostile file name quoted and escaped', async () => {
    const bundle = await reader;
    const steps = await bundle.steps();
    const page = (await bundle.stepPage('snapshots/page-002.json'))!;
    const late = { ...(await readStep(bundle, 10)), page_late_ms: page.snapshot.at - steps[9]!.ts + 2600 };
    expect(stepText(late, ask).join('\n')).toMatch(/page snapshot: snapshots\/page-002\.json \(taken \d+\.\d s after the step; nothing on it changed in between\)/);
    const hostile = { ...late, snapshot: 'snap\u202eshots\n"x"', page_late_ms: null };
    expect(stepText(hostile, ask)).toContain('  page snapshot: "snap\\u202eshots\\n\\"x\\""');
  });

  it('afr summary lists the last changes in plain words', async () => {
    const view = await readSummary(await reader);
    expect(view.changes.map((c) => c.step)).toEqual([4, 10]);
    expect(summaryText(view, ask).join('\n')).toMatch(/what changed:\n {2}#4 after "type": "after typing into Full name/);
  });
});
