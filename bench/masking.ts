/**
 * `npx tsx bench/masking.ts`: what text masking costs on the page side, printed as medians, never
 * asserted. Under happy-dom (no layout: the walks do all their masking work, the rects are empty):
 *   - a DOM snapshot (`takeSnapshot`) of a generated shop page of ~1,000 elements;
 *   - a walk for the on-screen regions (`collectSensitiveRects`) of the same page, with no cache
 *     (a fresh page each round: what a DOM mutation of every text costs);
 *   - the masking part of that walk alone: the pre-check and the masked span of every text node
 *     (the walk's DOM work under happy-dom outweighs it, and varies with the collector's heap);
 *   - one typed character: the masked span and the typing check of a field's value, for each prefix
 *     of a 120-character value, as the value grows.
 * `AFR_ROOT=/path/to/another/checkout` runs another version of the code (its `src/`), old or new API:
 * that is how the before/after figures are made.
 * BENCH_ROUNDS (default 60) and BENCH_PLAIN (see below) tune it.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Window } from 'happy-dom';

const ROOT = process.env.AFR_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
/** BENCH_PLAIN=1: no credential on the page (the code before the detector list masks none, and each masked text costs happy-dom a Range). */
const PLAIN = process.env.BENCH_PLAIN === '1';
const load = (rel: string) => import(pathToFileURL(path.join(ROOT, rel)).href);

/* eslint-disable @typescript-eslint/no-explicit-any -- two versions of the API are driven */
const snapshotModule: any = await load('src/snapshot/take-snapshot.ts');
const maskTextModule: any = await load('src/redact/mask-text.ts');
const rectsModule: any = await load('src/redact/sensitive-rects.ts');
const spanModule: any = await load('src/redact/masked-span.ts');
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The new API passes a masker; the old one read module-level rules. */
const masker = maskTextModule.createTextMasker?.();
const takeSnapshot = (doc: Document) => (masker ? snapshotModule.takeSnapshot(doc, masker) : snapshotModule.takeSnapshot(doc));
const collectRects = (doc: Document) => (masker ? rectsModule.collectSensitiveRects(doc, masker) : rectsModule.collectSensitiveRects(doc));
const maskedSpan = (text: string) => (masker ? spanModule.maskedSpan(text, masker) : spanModule.maskedSpan(text));
const mayHold: (text: string) => boolean = masker ? (text) => masker.mayHold(text) : spanModule.mayHoldMaskedText;
const mayBeTyping: (text: string) => boolean = spanModule.mayBeTypingPersonalData;

/** ~1,000 elements: 100 product cards of ten elements, a few with personal data or a credential. */
function shopPage(): string {
  const cards: string[] = [];
  for (let i = 0; i < 100; i++) {
    const extra =
      i % 25 === 0
        ? `<p>Contact jane.doe${i}@example.com or +1 (415) 555-01${String(i).padStart(2, '0')}</p>`
        : i % 33 === 0 && !PLAIN
          ? `<p>Debug: Authorization: Bearer ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}</p>`
          : `<p>Ships in ${1 + (i % 5)} days from warehouse ${i}</p>`;
    cards.push(`<article class="card" data-sku="SKU-${10000 + i}">
      <h3><a href="/products/${i}?ref=home&page=${i % 7}">Trail runner ${i} — size ${38 + (i % 10)}</a></h3>
      <img src="/img/${i}.png" alt="Trail runner ${i}">
      <p class="price">$${(49 + i).toFixed(2)} <s>$${(79 + i).toFixed(2)}</s></p>
      <p>Order ORD-2026-${String(100000 + i)} placed on 2026-11-${String(1 + (i % 28)).padStart(2, '0')}</p>
      ${extra}
      <ul><li>Colour: blue</li><li>Weight: ${200 + i} g</li></ul>
      <button type="button">Add to cart</button>
    </article>`);
  }
  return `<header><h1>Demo shop</h1><input name="q" placeholder="Search"></header><main>${cards.join('')}</main>
    <form><label>Email <input name="email" type="email" value="a@b.io"></label><label>Notes <input name="notes" value="call me"></label></form>`;
}

function newDocument(html: string): Document {
  const win = new Window({ url: 'https://shop.test/catalog', width: 1280, height: 720 });
  win.document.body.innerHTML = html;
  return win.document as unknown as Document;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(run: () => void, rounds = ROUNDS): number {
  for (let i = 0; i < 5; i++) run(); // warm-up: compiled regexes, JIT
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const html = shopPage();
const doc = newDocument(html);
const elements = doc.querySelectorAll('*').length;

const snapshotMs = time(() => takeSnapshot(doc));
// A fresh document per round, built outside the timing: the per-node cache would otherwise answer.
const docs = Array.from({ length: ROUNDS + 5 }, () => newDocument(html));
let next = 0;
const rectsMs = time(() => collectRects(docs[next++]!));

const texts: string[] = [];
const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.nodeValue ?? '');
const textChecksMs = time(() => {
  for (const text of texts) if (mayHold(text)) maskedSpan(text);
});

const VALUE = 'Deliver to jane.doe@example.com, call +1 415 555 0134, gate code 4471; token ghp_aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5 ok';
const perCharUs =
  (time(() => {
    for (let n = 1; n <= VALUE.length; n++) {
      const value = VALUE.slice(0, n);
      maskedSpan(value);
      mayBeTyping(value);
    }
  }) *
    1000) /
  VALUE.length;

console.log(`code: ${ROOT} (${masker ? 'detector list, explicit masker' : 'built-in masks, module rules'})`);
console.log(`page: ${elements} elements${PLAIN ? ', no credential' : ', 3 credentials'}; ${ROUNDS} rounds, medians`);
console.log(`snapshot (takeSnapshot)            ${snapshotMs.toFixed(2)} ms`);
console.log(`regions walk (collectSensitiveRects) ${rectsMs.toFixed(2)} ms`);
console.log(`text checks of a walk (${texts.length} texts)  ${textChecksMs.toFixed(2)} ms`);
console.log(`typed character (span + typing)     ${perCharUs.toFixed(2)} µs`);
