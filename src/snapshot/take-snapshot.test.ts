// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PageSnapshotSchema, type SnapshotNode } from '../../schemas/snapshot';
import { takeSnapshot } from './take-snapshot';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../test/fixtures', name), 'utf8').replace(/^<!doctype html>/i, '');

/** Values a user (or an agent) typed; the snapshot must hold none of them. */
const TYPED: Record<string, string> = {
  '#password': 'Hunter2!typed',
  '#email': 'typed.user@example.com',
  '#phone': '+1 (415) 555-0134',
  '#card': '4242 4242 4242 4242',
  '#cvv': '737',
  '#otp': '914271',
  '#ssn': '078-05-1120',
  '#iban': 'DE89370400440532013000',
  '#notes': 'reach me at notes.user@example.org or 415-555-0199, card 5555 5555 5555 4444',
  '#city': 'Paris',
};

const SECRETS = [
  'planted', // every string planted in the fixture's markup carries this word
  'Hunter2!typed',
  'typed.user@example.com',
  '555-0134',
  '4242 4242 4242 4242',
  '914271',
  '078-05-1120',
  'DE89370400440532013000',
  'notes.user@example.org',
  '415-555-0199',
  '5555 5555 5555 4444',
  '7946 0958',
  '4111 1111 1111 1111',
  '219-09-9999',
  'shadow-typed-cvc',
];

function loadSecretsPage(): void {
  document.documentElement.innerHTML = fixture('secrets.html');
  for (const [selector, value] of Object.entries(TYPED)) {
    (document.querySelector(selector) as HTMLInputElement).value = value;
  }
  const shadow = document.getElementById('shadow-host')!.attachShadow({ mode: 'open' });
  shadow.innerHTML = `<p>Shadow mail: shadow.planted@example.com</p>
    <input type="password" value="SHADOW-PW-PLANTED"><input id="shadow-cvc" name="cvc"><button>Shadow pay</button>`;
  (shadow.getElementById('shadow-cvc') as HTMLInputElement).value = 'shadow-typed-cvc';
}

function find(node: SnapshotNode, pred: (n: SnapshotNode) => boolean): SnapshotNode | undefined {
  if (pred(node)) return node;
  for (const c of node.children ?? []) {
    const hit = find(c, pred);
    if (hit) return hit;
  }
  return undefined;
}

describe('takeSnapshot on a page full of secrets', () => {
  beforeEach(loadSecretsPage);

  it('validates against the schema', () => {
    expect(() => PageSnapshotSchema.parse(takeSnapshot(document, BUILT_IN_MASKER))).not.toThrow();
  });

  it.each(SECRETS)('never contains %s', (secret) => {
    expect(JSON.stringify(takeSnapshot(document, BUILT_IN_MASKER)).toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('still shows what is not secret', () => {
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    expect(find(snap.root, (n) => n.attributes?.id === 'city')?.value).toBe('Paris');
    expect(find(snap.root, (n) => n.attributes?.id === 'notes')?.value).toBe(
      'reach me at [email] or [phone], card [card]',
    );
    expect(find(snap.root, (n) => n.tag === 'h1')?.text).toBe('Checkout');
    expect(find(snap.root, (n) => n.tag === 'button' && n.name === 'Pay now')).toBeTruthy();
    expect(find(snap.root, (n) => n.attributes?.id === 'reset')?.attributes?.href).toBe(
      'https://shop.test/reset?token=REDACTED&step=2',
    );
    expect(snap.title).toBe('Checkout for [email]');
  });

  it('withholds sensitive values with their kind and counts them', () => {
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    const pw = find(snap.root, (n) => n.attributes?.id === 'password');
    expect(pw).toMatchObject({ value: null, value_redacted: true, redaction_kind: 'password', name: 'Password' });
    expect(find(snap.root, (n) => n.attributes?.name === 'csrf_token')?.redaction_kind).toBe('hidden');
    expect(snap.redaction.fields).toMatchObject({
      password: 3, // page, shadow root, iframe
      email: 1,
      tel: 1,
      credit_card: 2, // card number field and card type select
      cvv: 2, // page and shadow root
      one_time_code: 2, // page and iframe
      ssn: 1,
      iban: 1,
      token: 1,
      secret: 1,
      hidden: 1,
    });
    expect(snap.redaction.text.email).toBeGreaterThanOrEqual(5);
    expect(snap.redaction.text.card_number).toBeGreaterThanOrEqual(2);
  });

  it('walks open shadow roots and same-origin iframes', () => {
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    const host = find(snap.root, (n) => n.tag === 'shadow-card');
    expect(host?.shadow_root).toBe(true);
    expect(find(host!, (n) => n.tag === 'button')?.name).toBe('Shadow pay');
    const frame = find(snap.root, (n) => n.tag === 'iframe');
    expect(frame?.frame).toBe('same-origin');
    expect(find(frame!, (n) => n.tag === 'p')?.text).toBe('Frame mail: [email]');
  });

  it('marks frames it cannot read as cross-origin, without children', () => {
    const frame = find(takeSnapshot(document, BUILT_IN_MASKER, { frameDocument: () => null }).root, (n) => n.tag === 'iframe');
    expect(frame).toMatchObject({ frame: 'cross-origin' });
    expect(frame?.children).toBeUndefined();
  });

  it('keeps no value attribute, data-*, style, event handler, head or script', () => {
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    const offending = find(snap.root, (n) =>
      Object.keys(n.attributes ?? {}).some((a) => a === 'value' || a === 'style' || a.startsWith('data-') || a.startsWith('on')),
    );
    expect(offending).toBeUndefined();
    expect(find(snap.root, (n) => ['head', 'meta', 'script', 'style'].includes(n.tag))).toBeUndefined();
  });
});

describe('takeSnapshot structure', () => {
  it('records roles, names, checked state and masked text', () => {
    document.body.innerHTML = `<nav aria-label="Main"><a href="/a">Home</a></nav>
      <label><input type="checkbox" id="c" checked> Remember me</label>
      <img src="/logo.png" alt="Logo"><svg><circle r="4"></circle><text>inner</text></svg>
      <p>Mail <b>bob@example.com</b> now</p>`;
    const snap = takeSnapshot(document, BUILT_IN_MASKER, { now: () => 42 });
    expect(snap.taken_at).toBe(42);
    expect(find(snap.root, (n) => n.tag === 'nav')).toMatchObject({ role: 'navigation', name: 'Main' });
    expect(find(snap.root, (n) => n.tag === 'a')).toMatchObject({ role: 'link', name: 'Home', attributes: { href: '/a' } });
    expect(find(snap.root, (n) => n.attributes?.id === 'c')).toMatchObject({ role: 'checkbox', checked: true, name: 'Remember me' });
    expect(find(snap.root, (n) => n.tag === 'img')).toMatchObject({ role: 'img', name: 'Logo' });
    expect(find(snap.root, (n) => n.tag === 'svg')?.children).toBeUndefined();
    expect(find(snap.root, (n) => n.tag === 'b')?.text).toBe('[email]');
    expect(find(snap.root, (n) => n.tag === 'p')?.text).toBe('Mail now');
  });

  it('shows slotted light-DOM content where the shadow tree renders it', () => {
    document.body.innerHTML = '<x-button id="host"><span>Buy now</span></x-button>';
    const host = document.getElementById('host')!;
    host.attachShadow({ mode: 'open' }).innerHTML = '<button><slot></slot></button>';
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    const button = find(snap.root, (n) => n.tag === 'button');
    expect(find(snap.root, (n) => n.tag === 'x-button')?.shadow_root).toBe(true);
    expect(find(button!, (n) => n.tag === 'slot')?.children?.[0]).toMatchObject({ tag: 'span', text: 'Buy now' });
  });

  it('caps node count and marks the snapshot truncated', () => {
    document.body.innerHTML = '<ul>' + '<li><a href="#">item</a></li>'.repeat(4000) + '</ul>';
    const snap = takeSnapshot(document, BUILT_IN_MASKER);
    expect(snap.node_count).toBe(5000);
    expect(snap.truncated).toBe(true);
    expect(PageSnapshotSchema.safeParse(snap).success).toBe(true);
  });

  it('keeps a 5,000-element page whole under a larger cap', () => {
    document.body.innerHTML = '<div>' + '<section><h2>T</h2><p>text <span>x</span></p><input name="q"></section>'.repeat(1000) + '</div>';
    const snap = takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 10_000 });
    expect(snap.node_count).toBe(1 + 1 + 1 + 5000); // html, body, div, 1000 × 5
    expect(snap.truncated).toBe(false);
  });

  it('caps depth', () => {
    document.body.innerHTML = '<div>'.repeat(50) + 'deep' + '</div>'.repeat(50);
    const snap = takeSnapshot(document, BUILT_IN_MASKER, { maxDepth: 10 });
    expect(snap.truncated).toBe(true);
    expect(snap.node_count).toBe(11);
  });

  it('caps text', () => {
    document.body.innerHTML = `<p>${'word '.repeat(500)}</p>`;
    expect(find(takeSnapshot(document, BUILT_IN_MASKER).root, (n) => n.tag === 'p')?.text).toHaveLength(300);
  });
});
