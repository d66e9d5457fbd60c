// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotNode } from '../../schemas/snapshot';
import { takeSnapshot } from '../snapshot/take-snapshot';
import { collectSensitiveRects, createSensitiveRectCollector, type RectLike, type RectSource } from './sensitive-rects';
import { compileRedactionRules, selectorValidator } from './custom-rules';
import { BUILT_IN_MASKER, createTextMasker, type TextMasker } from './mask-text';

// happy-dom has no layout (every rect is 0×0): each element's box comes from its `data-box`
// attribute ("x y width height"); a text range gets its element's box, and its text is recorded.
const DEFAULT_BOX = '10 10 100 20';

function boxOf(el: Element | null): RectLike {
  const [left, top, width, height] = (el?.closest('[data-box]')?.getAttribute('data-box') ?? DEFAULT_BOX).split(' ').map(Number);
  return { left: left!, top: top!, width: width!, height: height! };
}

function fakeLayout() {
  const ranges: string[] = [];
  const elements: string[] = [];
  const rectOf: RectSource = (target) => {
    if ('nodeType' in target) {
      elements.push(target.id || target.localName);
      return [boxOf(target)];
    }
    ranges.push(target.toString());
    return [boxOf(target.startContainer.parentElement)];
  };
  return { rectOf, ranges, elements };
}

function setValue(selector: string, value: string, root: ParentNode = document) {
  (root.querySelector(selector) as HTMLInputElement).value = value;
}

function activate(rules: { selectors?: string[]; fieldNamePatterns?: string[]; textPatterns?: string[] }) {
  const { rules: compiled } = compileRedactionRules(
    { selectors: rules.selectors ?? [], fieldNamePatterns: rules.fieldNamePatterns ?? [], textPatterns: rules.textPatterns ?? [] },
    selectorValidator(document),
  );
  masker = createTextMasker(compiled);
}

/** The masker in force, as the content script hands it to the collector. */
let masker: TextMasker = BUILT_IN_MASKER;
const current = () => masker;

afterEach(() => {
  masker = BUILT_IN_MASKER;
  document.body.innerHTML = '';
});

describe('collectSensitiveRects: which fields', () => {
  it.each([
    ['a password field, even empty', '<input id="f" type="password">', null],
    ['an email input', '<input id="f" type="email">', null],
    ['a card number by name', '<input id="f" name="card_number">', null],
    ['a one-time code by autocomplete', '<input id="f" autocomplete="one-time-code">', null],
    ['a sensitive select', '<select id="f" name="card_type"><option>Visa</option></select>', null],
    ['a plain field holding an email', '<input id="f" type="text" name="contact">', 'jane.secret.doe@example.com'],
    ['a plain field holding a phone number', '<input id="f" name="note">', 'call +1 415 555 0134'],
    ['a plain field holding a card number', '<input id="f" name="note">', '4111 1111 1111 1111'],
    ['a plain field holding an SSN', '<input id="f">', '512-44-9023'],
    ['a textarea holding an email', '<textarea id="f" name="comment"></textarea>', 'write to a@b.io'],
    ['an address being typed', '<input id="f" name="contact">', 'jane.secret.doe@exam'],
    ['a card number being typed', '<input id="f" name="note">', '4111 11'],
    ['a search box holding an email', '<input id="f" type="search">', 'jane@example.com'],
  ])('reports %s', (_what, html, value) => {
    document.body.innerHTML = html;
    if (value !== null) setValue('#f', value);
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toMatchObject([{ x: 10, y: 10, width: 100, height: 20 }]);
    expect(layout.elements).toEqual(['f']);
  });

  it.each([
    ['a plain field with a city', '<input id="f" name="city">', 'Paris'],
    ['a quantity', '<input id="f" type="number" name="qty">', '42'],
    ['a date', '<input id="f" type="date" name="when">', '2026-11-22'],
    ['a short number in a text field', '<input id="f" name="ref">', 'Order 10023'],
    ['a checkbox named password', '<input id="f" type="checkbox" name="remember_password">', null],
    ['a submit button', '<input id="f" type="submit" value="a@b.io">', null],
    ['an empty plain field', '<input id="f" name="note">', null],
  ])('leaves out %s', (_what, html, value) => {
    document.body.innerHTML = html;
    if (value !== null) setValue('#f', value);
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf)).toEqual([]);
  });

  it('reports the focused text field, and only while it has the focus', () => {
    document.body.innerHTML = '<input id="city" name="city"><input id="qty" type="number"><input id="box" type="checkbox"><textarea id="t"></textarea>';
    const { rectOf } = fakeLayout();
    for (const id of ['city', 'qty', 't']) {
      (document.getElementById(id) as HTMLElement).focus();
      expect(collectSensitiveRects(document, masker, rectOf), id).toHaveLength(1);
    }
    (document.getElementById('box') as HTMLElement).focus();
    expect(collectSensitiveRects(document, masker, rectOf)).toEqual([]);
    (document.activeElement as HTMLElement).blur();
    expect(collectSensitiveRects(document, masker, rectOf)).toEqual([]);
  });

  it('reports the focused field inside a shadow root', () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input id="inner" name="nickname">';
    (shadow.getElementById('inner') as HTMLElement).focus();
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toHaveLength(1);
    expect(layout.elements).toEqual(['inner']);
  });

  it('reports a plain field whose placeholder shows an address', () => {
    document.body.innerHTML = '<input id="f" placeholder="e.g. jane@example.com">';
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf)).toHaveLength(1);
  });

  it('follows a field as it is typed into and cleared', () => {
    document.body.innerHTML = '<input id="f" name="note">';
    const { rectOf } = fakeLayout();
    setValue('#f', 'hello');
    expect(collectSensitiveRects(document, masker, rectOf)).toEqual([]);
    setValue('#f', 'hello jane@example.com');
    expect(collectSensitiveRects(document, masker, rectOf)).toHaveLength(1);
    setValue('#f', '');
    expect(collectSensitiveRects(document, masker, rectOf)).toEqual([]);
  });
});

describe('collectSensitiveRects: text and custom rules', () => {
  it('reports the masked part of a text node only', () => {
    document.body.innerHTML = '<p id="p" data-box="0 100 600 40">Contact jane.notes@example.com for details</p><p>Nothing 2 see</p>';
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toMatchObject([{ x: 0, y: 100, width: 600, height: 40 }]);
    expect(layout.ranges).toEqual(['jane.notes@example.com']);
  });

  it('covers every secret of a text node with one range', () => {
    document.body.innerHTML = '<p>Call (415) 555-0199 or mail a@b.io today</p>';
    const layout = fakeLayout();
    collectSensitiveRects(document, masker, layout.rectOf);
    expect(layout.ranges).toEqual(['(415) 555-0199 or mail a@b.io']);
  });

  it('does not look at text without "@" or digits, nor at scripts and styles', () => {
    document.body.innerHTML = '<p>Plain words only</p><script>var a = "x@y.io"</script><style>/* 4111 1111 1111 1111 */</style>';
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toEqual([]);
    expect(layout.ranges).toEqual([]);
  });

  it('reports an element a custom selector withholds as one box, not its content', () => {
    document.body.innerHTML =
      '<div id="bal" class="account-balance" data-box="20 300 200 50"><p>12,345.67 EUR, a@b.io</p><input name="pw" type="password"></div><p>Public</p>';
    activate({ selectors: ['.account-balance'] });
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toMatchObject([{ x: 20, y: 300, width: 200, height: 50 }]);
    expect(layout.elements).toEqual(['bal']);
    expect(layout.ranges).toEqual([]);
  });

  it('applies custom field-name and text patterns', () => {
    document.body.innerHTML = '<label for="m">Member number</label><input id="m" value="M-99812"><p id="ref">Reference ACCT-123456, thanks</p>';
    activate({ fieldNamePatterns: ['member'], textPatterns: ['ACCT-\\d+'] });
    const layout = fakeLayout();
    expect(collectSensitiveRects(document, masker, layout.rectOf)).toHaveLength(2);
    expect(layout.elements).toEqual(['m']);
    expect(layout.ranges[0]).toContain('ACCT-123456');
  });

  it('reports an editor whose text holds a secret split across elements', () => {
    document.body.innerHTML = '<div id="ed" contenteditable="true" data-box="0 0 400 200">mail jane<b>.doe</b>@example.com</div><div contenteditable="false">a@b.io</div>';
    const layout = fakeLayout();
    collectSensitiveRects(document, masker, layout.rectOf);
    expect(layout.elements).toEqual(['ed']);
  });

  // Typed at an agent's speed, `editable.petra@ex` was readable in frames: an editor was a region only
  // once its text held a whole address, while a focused text field is one from the first key.
  it.each([
    ['an editor', '<div id="ed" contenteditable="true" data-box="0 0 400 40">mail me at editable.petra@ex</div>', 'ed'],
    ['a rich-text editor typing into a child span', '<div id="ed" contenteditable data-box="0 0 400 40"><span id="line">mail me at editable.petra@ex</span></div>', 'ed'],
    ['an editable island inside a read-only part of an editor', '<div id="ed" contenteditable data-box="0 0 400 40"><p contenteditable="false">x <span id="isle" contenteditable="true">mail</span></p></div>', 'isle'],
  ])('reports %s while it has the focus, whatever it holds', (_what, html, focus) => {
    document.body.innerHTML = `${html}<div id="other" contenteditable="true" data-box="0 50 400 40">notes</div>`;
    (document.getElementById(focus) as HTMLElement).focus();
    const layout = fakeLayout();
    collectSensitiveRects(document, masker, layout.rectOf);
    expect(layout.elements).toContain('ed');
    expect(layout.elements).not.toContain('other');
    (document.activeElement as HTMLElement).blur();
    document.getElementById('ed')!.textContent = 'mail me later';
    const after = fakeLayout();
    collectSensitiveRects(document, masker, after.rectOf);
    expect(after.elements).toEqual([]);
  });

  it.each([
    ['an address being typed', 'mail me at editable.petra@ex', true],
    ['a key being typed', 'key sk-proj-Zq7X', true],
    ['prose with an at sign after a space', 'meet @ noon', false],
  ])('reports an editor without the focus holding %s as a text field would', (_what, text, reported) => {
    document.body.innerHTML = `<div id="ed" contenteditable="true" data-box="0 0 400 40">${text}</div>`;
    const layout = fakeLayout();
    collectSensitiveRects(document, masker, layout.rectOf);
    expect(layout.elements).toEqual(reported ? ['ed'] : []);
  });

  it('reports the body of a document in designMode (an iframe editor) while it has the focus', () => {
    document.body.innerHTML = 'draft';
    document.body.setAttribute('data-box', '0 0 800 600');
    const before = fakeLayout();
    collectSensitiveRects(document, masker, before.rectOf);
    expect(before.elements).toEqual([]);
    document.designMode = 'on';
    try {
      document.body.focus();
      const layout = fakeLayout();
      collectSensitiveRects(document, masker, layout.rectOf);
      expect(layout.elements).toEqual(['body']);
    } finally {
      document.designMode = 'off';
      document.body.removeAttribute('data-box');
    }
  });
});

describe('collectSensitiveRects: shadow roots, iframes and geometry', () => {
  it('walks open shadow roots and tells which roots it walked', () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input id="spw" type="password" data-box="5 6 7 8">';
    const roots: unknown[] = [];
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf, { onRoot: (r) => roots.push(r) })).toMatchObject([{ x: 5, y: 6, width: 7, height: 8 }]);
    expect(roots).toEqual([document, shadow]);
  });

  it('shifts same-origin iframe content by the iframe box and clips it to that box', () => {
    document.body.innerHTML = '<iframe id="frame" srcdoc="" data-box="100 200 300 150"></iframe>';
    const inner = document.implementation.createHTMLDocument('card');
    inner.body.innerHTML = '<input id="fcc" autocomplete="cc-number" data-box="10 20 100 30"><input id="wide" type="password" data-box="250 140 400 40">';
    const frame = document.getElementById('frame')!;
    Object.defineProperty(frame, 'clientWidth', { value: 300 });
    Object.defineProperty(frame, 'clientHeight', { value: 150 });
    const rects = collectSensitiveRects(document, masker, fakeLayout().rectOf, { frameDocument: (el) => (el === frame ? inner : null) });
    expect(rects).toMatchObject([
      { x: 110, y: 220, width: 100, height: 30 },
      { x: 350, y: 340, width: 50, height: 10 },
    ]);
  });

  it('masks the whole box of an iframe it cannot read (another origin), and of one nested too deep to walk', () => {
    document.body.innerHTML = '<p>Pay</p><iframe id="pay" data-box="40 300 420 180"></iframe><iframe id="hidden" data-box="0 0 0 0"></iframe>';
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf, { frameDocument: () => null })).toMatchObject([{ x: 40, y: 300, width: 420, height: 180 }]);

    // By default an iframe is judged by what it loads too: another origin's page may still be on its way.
    document.body.innerHTML = `<iframe id="other" src="https://pay.example.net/card" data-box="0 0 300 100"></iframe><iframe id="same" src="${location.origin}/frame.html" data-box="0 200 300 100"></iframe><iframe id="blank" src="about:blank" data-box="0 400 300 100"></iframe>`;
    // Each still shows a readable document (jsdom loads none): the first one's page is on its way.
    for (const frame of document.querySelectorAll('iframe')) {
      const inner = document.implementation.createHTMLDocument('frame');
      Object.defineProperty(frame, 'contentDocument', { get: () => inner });
      Object.defineProperty(frame, 'clientWidth', { value: 300 });
      Object.defineProperty(frame, 'clientHeight', { value: 100 });
    }
    const roots: unknown[] = [];
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf, { onRoot: (root) => roots.push(root) })).toMatchObject([{ x: 0, y: 0, width: 300, height: 100 }]);
    expect(roots).toHaveLength(3); // the top document and the two same-origin frames

    // Same-origin documents nested nine deep, each iframe 1 px into its parent's: eight are walked,
    // the iframe in the eighth is masked whole (placed 8 px in, clipped to the frames around it).
    const docs = Array.from({ length: 9 }, () => document.implementation.createHTMLDocument('nested'));
    document.body.innerHTML = '<iframe data-box="10 10 400 400"></iframe>';
    docs.forEach((doc) => (doc.body.innerHTML = '<iframe data-box="1 1 400 400"></iframe>'));
    const frames = [document, ...docs].map((doc) => doc.querySelector('iframe')!);
    for (const frame of frames) {
      Object.defineProperty(frame, 'clientWidth', { value: 400 });
      Object.defineProperty(frame, 'clientHeight', { value: 400 });
    }
    const walked: unknown[] = [];
    const frameDocument = (el: Element) => docs[frames.indexOf(el as HTMLIFrameElement)] ?? null;
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf, { frameDocument, onRoot: (root) => walked.push(root) })).toMatchObject([
      { x: 18, y: 18, width: 392, height: 392 },
    ]);
    expect(walked).toEqual([document, ...docs.slice(0, 8)]);
  });

  it('skips empty boxes and boxes outside the viewport, clips the rest and rounds outwards', () => {
    document.body.innerHTML = `
      <input type="password" data-box="0 0 0 0">
      <input type="password" data-box="10 2000 100 20">
      <input type="password" data-box="-50 700 100 100">
      <input type="password" data-box="10.4 20.6 100.2 19.5">`;
    expect(collectSensitiveRects(document, masker, fakeLayout().rectOf)).toMatchObject([
      { x: 0, y: 700, width: 50, height: window.innerHeight - 700 },
      { x: 10, y: 20, width: 101, height: 21 },
    ]);
  });

  it('with a viewport margin, also reports what lies within it outside the viewport (what a scroll is about to show)', () => {
    document.body.innerHTML = `
      <input type="password" data-box="10 -300 100 20">
      <input type="password" data-box="10 ${window.innerHeight + 500} 100 20">
      <input type="password" data-box="10 ${window.innerHeight + 1500} 100 20">`;
    expect(createSensitiveRectCollector(current, fakeLayout().rectOf, 1_000).collect(document)).toMatchObject([
      { x: 10, y: -300, width: 100, height: 20 },
      { x: 10, y: window.innerHeight + 500, width: 100, height: 20 },
    ]);
  });

  it('merges rects past the limit instead of dropping any', () => {
    document.body.innerHTML = Array.from({ length: 9 }, (_, i) => `<input type="password" data-box="0 ${i * 30} 100 20">`).join('');
    const rects = collectSensitiveRects(document, masker, fakeLayout().rectOf, { maxRects: 4 });
    expect(rects.length).toBeLessThanOrEqual(4);
    for (let i = 0; i < 9; i++) {
      expect(rects.some((r) => r.y <= i * 30 && r.y + r.height >= i * 30 + 20 && r.x <= 0 && r.width >= 100)).toBe(true);
    }
  });

  it('reports nothing for an empty document', () => {
    const empty = document.implementation.createHTMLDocument('');
    empty.documentElement.remove();
    expect(collectSensitiveRects(empty, masker, fakeLayout().rectOf)).toEqual([]);
  });
});

describe('collectSensitiveRects agrees with the DOM snapshot', () => {
  function* nodes(node: SnapshotNode): Generator<SnapshotNode> {
    yield node;
    for (const c of node.children ?? []) yield* nodes(c);
  }

  it('reports every field the snapshot withholds or masks, and every masked text', () => {
    const html = readFileSync(path.join(import.meta.dirname, '../../test/fixtures/secrets.html'), 'utf8');
    document.documentElement.innerHTML = html.replace(/^<!doctype html>/i, '');
    setValue('#notes', 'reach me at notes.user@example.org');
    setValue('#city', 'Paris');
    const shadow = document.getElementById('shadow-host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<p>Shadow mail: shadow.planted@example.com</p><input id="shadow-pw" type="password">';
    const frame = document.getElementById('same-origin-frame')!;
    Object.defineProperty(frame, 'clientWidth', { value: 300 });
    Object.defineProperty(frame, 'clientHeight', { value: 150 });
    const layout = fakeLayout();
    collectSensitiveRects(document, masker, layout.rectOf);

    const snapshot = takeSnapshot(document, masker);
    const withheld = [...nodes(snapshot.root)]
      .filter((n) => n.value_redacted || (n.value ?? '').includes('['))
      .map((n) => n.attributes?.id ?? n.tag);
    // Fields without an id: the hidden CSRF input and the iframe's two inputs.
    expect(withheld.filter((id) => id === 'input')).toHaveLength(3);
    expect(layout.elements.filter((id) => id === 'input')).toHaveLength(3);
    for (const id of withheld) expect(layout.elements).toContain(id);
    expect(layout.elements).toContain('shadow-pw');
    expect(layout.elements).not.toContain('city');
    expect(layout.ranges).toEqual(
      expect.arrayContaining([
        '+44 20 7946 0958 or write to support.planted@example.com',
        '4111 1111 1111 1111',
        '219-09-9999',
        'shadow.planted@example.com',
        'frame.planted@example.com',
      ]),
    );
  });
});

describe('createSensitiveRectCollector: measuring again what a walk found', () => {
  const FORM = `
    <label for="name">Name</label><input id="name" data-box="10 10 200 20">
    <input id="mail" type="email" data-box="10 40 200 20">
    <input id="note" name="note" data-box="10 70 200 20">
    <textarea id="bio" data-box="10 100 200 40"></textarea>
    <select id="size" data-box="10 150 100 20"><option>S</option><option>M</option></select>
    <p id="contact" data-box="300 10 300 20">Write to help.desk@example.com</p>
    <div id="editor" contenteditable="true" data-box="300 40 300 40">call 415 555 0134</div>
    <div id="draft" contenteditable="true" data-box="300 120 300 40">draft</div>
    <div id="secret" data-box="300 90 100 20">withheld</div>`;

  const steps: [string, () => void][] = [
    ['the focus moves to a plain field', () => (document.getElementById('name') as HTMLInputElement).focus()],
    ['an address is typed into it', () => setValue('#name', 'jane@exam')],
    ['the focus moves on', () => (document.getElementById('bio') as HTMLTextAreaElement).focus()],
    ['the focus moves into the editor', () => (document.getElementById('editor') as HTMLElement).focus()],
    ['the focus moves back to a field', () => (document.getElementById('bio') as HTMLTextAreaElement).focus()],
    ['a script writes a card number into a field that has no focus', () => setValue('#note', '4111 1111 1111 1111')],
    ['the focus leaves every field', () => (document.activeElement as HTMLElement).blur()],
    ['a value is cleared', () => setValue('#note', '')],
    ['the page moves (scrolling)', () => document.getElementById('mail')!.setAttribute('data-box', '10 -5 200 20')],
  ];

  it('gives the rects a new walk gives, in the same order, after each change no mutation shows', () => {
    document.body.innerHTML = FORM;
    activate({ selectors: ['#secret'] });
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    collector.collect(document);
    for (const [, change] of steps) {
      change();
      expect(collector.remeasure(document)).toEqual(collectSensitiveRects(document, masker, fakeLayout().rectOf));
    }
  });

  it('measures only the regions the walk found, not every field and text', () => {
    document.body.innerHTML = FORM;
    const layout = fakeLayout();
    const again = createSensitiveRectCollector(current, layout.rectOf);
    again.collect(document);
    layout.ranges.length = 0;
    layout.elements.length = 0;
    again.remeasure(document);
    // The masked texts (the editor's too), the editor and the email field; not the plain fields.
    expect(layout.ranges).toEqual(['help.desk@example.com', '415 555 0134']);
    expect(layout.elements).toEqual(['editor', 'mail']);
  });

  it.each([
    ['nothing was collected yet', () => {}, false],
    ['the redaction rules changed', () => activate({ textPatterns: ['withheld'] }), true],
    ['a text node it found changed', () => (document.getElementById('contact')!.firstChild!.nodeValue = 'Write to x@example.org'), true],
    ['a field it found was removed', () => document.getElementById('mail')!.remove(), true],
    ['the custom selector matches another element now', () => document.getElementById('name')!.setAttribute('class', 'secret'), true],
  ])('cannot stand in for a walk when %s', (_what, change, collectFirst) => {
    document.body.innerHTML = FORM;
    activate({ selectors: ['#secret', '.secret'] });
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    if (collectFirst) collector.collect(document);
    change();
    expect(collector.remeasure(document)).toBeNull();
  });

  it('follows the focus inside an open shadow root', () => {
    document.body.innerHTML = `${FORM}<div id="host" data-box="300 200 300 40"></div>`;
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input id="inner" name="nickname" data-box="300 200 200 20"><input id="other" name="alias" data-box="300 230 200 20">';
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    collector.collect(document);
    for (const id of ['inner', 'other']) {
      (shadow.getElementById(id) as HTMLInputElement).focus();
      const rects = collector.remeasure(document);
      expect(rects).toEqual(collectSensitiveRects(document, masker, fakeLayout().rectOf));
      expect(rects).toContainEqual(expect.objectContaining({ x: 300, y: id === 'inner' ? 200 : 230, width: 200, height: 20 }));
    }
  });

  it('gives each node an id of its own, the same in every walk and measuring again', () => {
    document.body.innerHTML = '<input id="a" type="password" data-box="10 10 100 20"><p data-box="0 100 600 40">mail jane@example.com</p>';
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    const first = collector.collect(document);
    expect(first).toHaveLength(2);
    expect(new Set(first.map((r) => r.id)).size).toBe(2);
    document.getElementById('a')!.setAttribute('data-box', '10 400 100 20');
    expect(collector.remeasure(document)?.map((r) => r.id)).toEqual(first.map((r) => r.id));
    document.body.insertAdjacentHTML('afterbegin', '<input type="password" data-box="10 10 50 20">');
    const again = collector.collect(document);
    expect(again).toHaveLength(3);
    expect(again.slice(1).map((r) => r.id)).toEqual(first.map((r) => r.id));
    expect(first.map((r) => r.id)).not.toContain(again[0]!.id);
  });

  it('cannot stand in for a walk of a page with an iframe, readable or not', () => {
    document.body.innerHTML = `${FORM}<iframe id="frame" data-box="0 300 300 150"></iframe>`;
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    collector.collect(document, { frameDocument: () => null });
    expect(collector.remeasure(document)).toBeNull();
  });

  it('cannot stand in for a walk of another document', () => {
    document.body.innerHTML = FORM;
    const collector = createSensitiveRectCollector(current, fakeLayout().rectOf);
    collector.collect(document);
    expect(collector.remeasure(document.implementation.createHTMLDocument('other'))).toBeNull();
  });
});
