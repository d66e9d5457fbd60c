// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimelineDataSchema, TimelineSnapshotSchema, type TimelineEntry } from '../../../schemas/timeline';
import { BUILT_IN_MASKER, createTextMasker } from '../../redact/mask-text';
import { compileRedactionRules } from '../../redact/custom-rules';
import { takeSnapshot } from '../../snapshot/take-snapshot';
import { checkpointsOf, rebuildAt } from '../data/rebuild';
import { comparable, mutateRandomly, seededRandom } from '../../../test/fakes/random-pages';
import { MAX_WAITING_INSERTED, startTimeline, type TimelineRecorder } from './timeline-recorder';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../../test/fixtures', name), 'utf8').replace(/^<!doctype html>/i, '');

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwbGFudGVkIn0.Zm9vYmFyYmF6cXV4cGxhbnRlZA';
const SECRETS = ['planted', 'Hunter2!typed', 'typed.user@example.com', JWT, 'later.mail@example.com', '4242 4242 4242 4242'];

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

const start = (opts: Parameters<typeof startTimeline>[2] = { bufferSeconds: 60 }, masker = BUILT_IN_MASKER) =>
  (recorder = startTimeline(document, masker, opts));

/** Types like a person or an agent does: sets the value, then fires `input`. */
function type(selector: string, value: string): void {
  const el = document.querySelector(selector) as HTMLInputElement;
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

function rebuildLast(rec: TimelineRecorder, label: string) {
  const cp = rec.checkpoint(label);
  const snap = rebuildAt(rec.data(), cp.seq);
  expect(snap).not.toBeNull();
  return snap!;
}

describe('the timeline of a page full of secrets', () => {
  beforeEach(() => {
    document.documentElement.innerHTML = fixture('secrets.html');
    const shadow = document.getElementById('shadow-host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = `<p>Shadow mail: shadow.planted@example.com</p><input type="password" value="SHADOW-PW-PLANTED"><button>Shadow pay</button>`;
  });

  it('starts with the same page takeSnapshot sees, ids aside', () => {
    const rec = start();
    const snap = rebuildLast(rec, 'start');
    expect(() => TimelineSnapshotSchema.parse(snap)).not.toThrow();
    expect(comparable(snap.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root));
  });

  it('never holds a planted secret in its base, changes, rebuilt pages or diff', async () => {
    const rec = start();
    rec.checkpoint('before typing');
    type('#password', 'Hunter2!typed');
    type('#email', 'typed.user@example.com');
    type('#city', JWT);
    type('#card', '4242 4242 4242 4242');
    const p = document.createElement('p');
    p.textContent = 'Receipt sent to later.mail@example.com';
    document.body.append(p);
    document.querySelector('h1')!.setAttribute('title', `token ${JWT}`);
    await Promise.resolve();
    rec.checkpoint('after typing');
    const data = rec.data();
    expect(() => TimelineDataSchema.parse(data)).not.toThrow();
    const pages = checkpointsOf(data).map((c) => rebuildAt(data, c.seq));
    const text = JSON.stringify([data, pages]).toLowerCase();
    for (const secret of SECRETS) expect(text).not.toContain(secret.toLowerCase());
    // What is not secret still shows, masked where it must be.
    expect(text).toContain('receipt sent to [email]');
  });

  it('records a value typed into a plain field and withholds a password field', () => {
    const rec = start();
    type('#city', 'Paris');
    type('#password', 'Hunter2!typed');
    const snap = rebuildLast(rec, 'typed');
    const flat = JSON.stringify(snap);
    expect(flat).toContain('"value":"Paris"');
    expect(flat).not.toContain('Hunter2');
  });

  it('applies the custom rules of the masker it is given', () => {
    const { rules } = compileRedactionRules({ selectors: ['#checkout'], fieldNamePatterns: [], textPatterns: ['ORD-\\d+'] }, () => true);
    const masker = createTextMasker(rules);
    const rec = start({ bufferSeconds: 60 }, masker);
    const p = document.createElement('p');
    p.textContent = 'Order ORD-12345 confirmed';
    document.body.append(p);
    const flat = JSON.stringify(rec.data());
    expect(flat).not.toContain('ORD-12345');
    expect(flat).toContain('Order [redacted] confirmed');
    expect(flat).toContain('"redaction_kind":"custom"');
  });
});

describe('incremental recording', () => {
  beforeEach(() => {
    document.documentElement.innerHTML = '<head></head><body><main id="app"><ul id="list"><li>one</li></ul><span id="count">0</span></main></body>';
  });

  it('a checkpoint with nothing new adds only its marker, and its change count says the page is the same', () => {
    const rec = start();
    const a = rec.checkpoint('one');
    const b = rec.checkpoint('two');
    expect(b.changes).toBe(a.changes);
    expect(rec.data().entries.filter((e) => e.kind !== 'checkpoint')).toEqual([]);
    document.getElementById('count')!.textContent = '1';
    expect(rec.checkpoint('three').changes).toBe(a.changes + 1);
  });

  it('keeps node ids stable across changes', () => {
    const rec = start();
    const before = rec.target(document.getElementById('count')).node_id;
    document.getElementById('list')!.insertAdjacentHTML('beforeend', '<li>two</li><li>three</li>');
    document.getElementById('count')!.textContent = '3';
    rec.checkpoint('after');
    expect(rec.target(document.getElementById('count')).node_id).toBe(before);
  });

  it('names the recorded element an event target belongs to, with its rect', () => {
    const rec = start();
    const button = document.createElement('button');
    button.innerHTML = '<b>Place</b> order';
    document.getElementById('app')!.append(button);
    const target = rec.target(button.querySelector('b')!.firstChild);
    const snap = rebuildLast(rec, 'click');
    const found = JSON.stringify(snap).includes(`"id":${target.node_id},"tag":"b"`);
    expect(found).toBe(true);
    expect(target.rect).toEqual({ x: 0, y: 0, width: 0, height: 0 });
    expect(rec.target(null)).toEqual({ node_id: null, rect: null });
  });

  it('names the nearest recorded element for a target inside a shadow root or an svg', () => {
    const host = document.createElement('x-card');
    host.attachShadow({ mode: 'open' }).innerHTML = '<button>Buy</button>';
    document.getElementById('app')!.append(host);
    document.getElementById('app')!.insertAdjacentHTML('beforeend', '<svg id="icon"><path d="M0 0"></path></svg>');
    const rec = start();
    const snap = rebuildLast(rec, 'click');
    const button = rec.target(host.shadowRoot!.querySelector('button'));
    const svg = rec.target(document.querySelector('path'));
    const flat = JSON.stringify(snap);
    expect(flat).toContain(`"id":${button.node_id},"tag":"button","role":"button","name":"Buy"`);
    expect(svg.node_id).toBe(rec.target(document.getElementById('icon')).node_id);
    expect(flat).toContain(`"id":${svg.node_id},"tag":"svg"`);
  });

  it('renames a field when the text of the element naming it through aria-labelledby changes', () => {
    document.getElementById('app')!.insertAdjacentHTML('beforeend', '<span id="lbl">Town</span><input id="f" aria-labelledby="lbl">');
    const rec = start();
    document.getElementById('lbl')!.textContent = 'City';
    const snap = rebuildLast(rec, 'renamed');
    expect(JSON.stringify(snap)).toContain('"name":"City"');
    expect(comparable(snap.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER).root));
  });

  it('follows an element moved to a parent that changed earlier in the same batch', () => {
    document.getElementById('app')!.insertAdjacentHTML('beforeend', '<section id="to"></section>');
    const rec = start();
    const to = document.getElementById('to')!;
    to.append(document.createElement('hr'));
    to.append(document.getElementById('list')!);
    const snap = rebuildLast(rec, 'moved');
    expect(comparable(snap.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER).root));
  });

  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('rebuilds every checkpoint of random mutations as a fresh snapshot sees it (seed %i)', async (seed) => {
    const rnd = seededRandom(seed);
    const app = document.getElementById('app')!;
    const rec = start();
    const expected: unknown[] = [];
    for (let step = 0; step < 25; step++) {
      const n = 1 + Math.floor(rnd() * 6);
      for (let i = 0; i < n; i++) mutateRandomly(document, app, rnd);
      // Half the steps let the observer deliver first, as a page's own event loop would.
      if (rnd() < 0.5) await Promise.resolve();
      rec.checkpoint(`step ${step}`);
      expected.push(comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root));
    }
    const data = rec.data();
    checkpointsOf(data).forEach((c, i) => expect(comparable(rebuildAt(data, c.seq)!.root)).toEqual(expected[i]));
  });
});

describe('bounds', () => {
  it('captures a 10,000-element page whole', () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `<tr><td>Item ${i}</td><td><a href="/i/${i}">open</a></td><td>${i}</td></tr>`);
    document.documentElement.innerHTML = `<head></head><body><table>${rows.join('')}</table></body>`;
    const rec = start();
    const snap = rebuildLast(rec, 'start');
    expect(snap.truncated).toBe(false);
    expect(snap.node_count).toBeGreaterThanOrEqual(10_000);
  });

  it('marks the page truncated past its byte budget, and keeps recording', () => {
    document.documentElement.innerHTML = `<head></head><body>${'<p>paragraph of text</p>'.repeat(2000)}</body>`;
    const rec = start({ bufferSeconds: 60, maxPageBytes: 20_000 });
    const cp = rec.checkpoint('start');
    expect(cp.truncated).toBe(true);
    expect(rec.data().bytes.base).toBeLessThanOrEqual(20_000 + 200);
    document.querySelector('p')!.textContent = 'changed';
    const after = rec.checkpoint('after');
    expect(rebuildAt(rec.data(), after.seq)!.root.children![0]!.children![0]!.text).toBe('changed');
  });

  it('stays within its byte budget on a page mutated 1,000 times', () => {
    document.documentElement.innerHTML = '<head></head><body><main id="app"><p>start</p></main></body>';
    let t = 0;
    const rec = start({ bufferSeconds: 3600, maxChangeBytes: 30_000, now: () => t });
    const app = document.getElementById('app')!;
    const rnd = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      t += 10;
      mutateRandomly(document, app, rnd);
      if (i % 5 === 0) rec.checkpoint(`step ${i}`);
      expect(rec.data().bytes.entries).toBeLessThanOrEqual(30_000);
    }
    const last = rec.checkpoint('end');
    const data = rec.data();
    expect(comparable(rebuildAt(data, last.seq)!.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root));
    // The oldest checkpoints were folded into the base; the recent ones remain.
    expect(rebuildAt(data, 0)).toBeNull();
    expect(JSON.stringify(data).length).toBeLessThan(4 * (30_000 + data.bytes.base));
  });

  it('folds changes older than bufferSeconds into the base', () => {
    document.documentElement.innerHTML = '<head></head><body><span id="c">0</span></body>';
    let t = 0;
    const rec = start({ bufferSeconds: 10, now: () => t });
    for (let i = 1; i <= 30; i++) {
      t += 1000;
      document.getElementById('c')!.textContent = String(i);
      rec.checkpoint(`step ${i}`);
    }
    const data = rec.data();
    expect(data.entries.every((e) => e.at >= t - 10_000)).toBe(true);
    expect(data.base.at).toBeGreaterThanOrEqual(t - 11_000);
    const first = checkpointsOf(data)[0]!;
    expect(rebuildAt(data, first.seq)!.root.children![0]!.children![0]!.text).toBe(first.label.replace('step ', ''));
  });
});

describe('a page flooding its DOM', () => {
  /** A clock that also moves 1 ms each time it is read: the recorder's work takes time. */
  const ticking = () => {
    const t0 = Date.now();
    let reads = 0;
    return () => Date.now() - t0 + ++reads;
  };
  const flood = (round: number) => document.querySelectorAll('#flood div').forEach((d, i) => d.setAttribute('title', `round ${round} node ${i} ${'lorem ipsum '.repeat(50)}`));
  const fieldChanges = (entries: TimelineEntry[]) => entries.filter((e) => e.kind === 'fields').length;

  beforeEach(() => {
    document.documentElement.innerHTML = `<head></head><body><div id="flood">${'<div>x</div>'.repeat(200)}</div></body>`;
  });

  it('reads the changes in slices within the work budget, the rest waiting; a checkpoint reads them all', async () => {
    const entries: TimelineEntry[] = [];
    const rec = start({ bufferSeconds: 60, now: ticking(), onEntry: (e) => entries.push(e), workBudget: { sliceMs: 5, share: 0.01, burstMs: 5 } });
    flood(1);
    await Promise.resolve();
    const read = fieldChanges(entries);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(200);
    const cp = rec.checkpoint('after the flood');
    expect(fieldChanges(entries)).toBe(200);
    expect(comparable(rebuildAt(rec.data(), cp.seq)!.root)).toEqual(comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root));
  });

  it('reads what waited later on its own, an element rewritten meanwhile once, as it is then', async () => {
    const entries: TimelineEntry[] = [];
    start({ bufferSeconds: 60, now: ticking(), onEntry: (e) => entries.push(e), workBudget: { sliceMs: 5, share: 0.5, burstMs: 5 } });
    for (let round = 1; round <= 5; round++) {
      flood(round);
      await Promise.resolve();
    }
    const lastTitles = () => {
      const last = new Map<number, string>();
      for (const e of entries) if (e.kind === 'fields') last.set(e.node.id, e.node.attributes?.title ?? '');
      return [...last.values()];
    };
    // No checkpoint: the timers read what waited, each node as it is after the fifth round.
    await vi.waitFor(() => expect(lastTitles().filter((title) => title.startsWith('round 5 '))).toHaveLength(200), { timeout: 4_000, interval: 20 });
    // Five rounds of 200 rewrites: far fewer reads than rewrites.
    expect(fieldChanges(entries)).toBeLessThan(2 * 200);
  });

  it('reads what waits at once when more nodes were inserted meanwhile than it keeps in mind', async () => {
    const entries: TimelineEntry[] = [];
    start({ bufferSeconds: 60, now: ticking(), onEntry: (e) => entries.push(e), workBudget: { sliceMs: 1, share: 0.0001, burstMs: 1 } });
    const host = document.getElementById('flood')!;
    host.setAttribute('title', 'first');
    await Promise.resolve(); // the budget is spent: what comes next waits
    const inserted = (entries: TimelineEntry[]) => entries.reduce((n, e) => n + (e.kind === 'children' ? e.added.length : 0), 0);
    const before = inserted(entries);
    for (let i = 0; i <= MAX_WAITING_INSERTED; i++) host.append(document.createElement('span'));
    await Promise.resolve();
    expect(inserted(entries) - before).toBeGreaterThan(MAX_WAITING_INSERTED);
  });
});
