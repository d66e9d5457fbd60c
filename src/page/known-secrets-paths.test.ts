// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { StepObservedMessage } from '../../schemas/messages';
import { NO_CUSTOM_RULES } from '../redact/custom-rules';
import { createKnownSecrets, type KnownSecrets } from '../redact/known-secrets';
import { knownSecretsMaskers, withKnownSecrets } from '../redact/known-secrets-masker';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { collectSensitiveRects, type RectSource } from '../redact/sensitive-rects';
import { takeSnapshot } from '../snapshot/take-snapshot';
import { startTimeline, type TimelineRecorder } from '../timeline/page/timeline-recorder';
import { observeActions } from './observe-actions';
import { watchSensitiveValues, type SensitiveValueWatch } from './watch-sensitive-values';

// Every path text leaves the page by, on a page that echoes what is typed into its sensitive fields.
const PASSWORD = 'Kestrel!Mango77plum';
const API_KEY = 'ak-Quokka-5521-Vireo';
const PREFILLED = 'Prefilled#Heron2048';
const PLANTED = [PASSWORD, API_KEY, PREFILLED];

const PAGE = `
  <h1>Account</h1>
  <p>Ordinary text stays.</p>
  <input type="password" id="pw"><span id="preview"></span>
  <input name="api_key" id="key"><button id="save">Save</button><p id="saved"></p>
  <input type="password" id="reveal" value="${PREFILLED}"><button id="show">Show</button>`;

let watch: SensitiveValueWatch | null = null;
let recorder: TimelineRecorder | null = null;
const stops: (() => void)[] = [];

afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  recorder?.stop();
  watch?.stop();
  recorder = watch = null;
  document.title = '';
  document.body.innerHTML = '';
});

function load(): KnownSecrets {
  document.body.innerHTML = PAGE;
  const secrets = createKnownSecrets();
  watch = watchSensitiveValues(window, secrets, () => NO_CUSTOM_RULES);
  const el = (id: string) => document.getElementById(id) as HTMLInputElement;
  // The page's own handlers: a preview per key, "Saved key …" after Save, a "show" button.
  el('pw').addEventListener('input', () => (el('preview').textContent = `Preview: ${el('pw').value}`));
  el('save').addEventListener('click', () => {
    el('saved').textContent = `Saved key ${el('key').value}`;
    el('saved').title = `key ${el('key').value}`;
    document.title = `Saved ${el('key').value}`;
    el('key').value = '';
  });
  el('show').addEventListener('click', () => {
    el('reveal').type = 'text';
    el('show').textContent = `Hide ${el('reveal').value}`;
  });
  return secrets;
}

function typeInto(id: string, value: string): void {
  const el = document.getElementById(id) as HTMLInputElement;
  el.focus();
  for (let n = 1; n <= value.length; n++) {
    el.value = value.slice(0, n);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }
}

function click(id: string): void {
  const el = document.getElementById(id) as HTMLButtonElement;
  el.focus();
  el.click();
}

function expectNoneOf(planted: readonly string[], what: unknown): void {
  const text = JSON.stringify(what);
  for (const secret of planted) expect(text).not.toContain(secret);
  for (const secret of planted) expect(text).not.toContain(secret.slice(0, 6));
}

describe('known secrets on every path out of the page', () => {
  it('snapshot: echoes, the saved key, the title and a revealed prefilled password are masked; ordinary text is kept', () => {
    const secrets = load();
    const maskerOf = knownSecretsMaskers(secrets);
    typeInto('pw', PASSWORD);
    typeInto('key', API_KEY);
    click('save');
    click('show');
    watch!.sweep();
    const snapshot = takeSnapshot(document, maskerOf(BUILT_IN_MASKER));
    expectNoneOf(PLANTED, snapshot);
    const text = JSON.stringify(snapshot);
    expect(text).toContain('Ordinary text stays.');
    expect(text).toContain('Preview: [credential]');
    expect(text).toContain('Saved key [credential]');
    expect(snapshot.title).toBe('Saved [credential]');
    expect(snapshot.redaction.text.credential).toBeGreaterThanOrEqual(4);
  });

  it('timeline: no change, rebuilt page or title holds a prefix of the password echoed key by key', () => {
    const secrets = load();
    recorder = startTimeline(document, withKnownSecrets(BUILT_IN_MASKER, secrets), { bufferSeconds: 60 });
    recorder.checkpoint('before');
    typeInto('pw', PASSWORD);
    // Each key's echo is recorded as its own change: flushed one by one.
    recorder.checkpoint('typed');
    typeInto('key', API_KEY);
    click('save');
    click('show');
    recorder.checkpoint('after');
    const data = recorder.data();
    expectNoneOf(PLANTED, data);
    expect(JSON.stringify(data)).toContain('Preview: [credential]');
  });

  it('timeline: each key of the echo, recorded as it is typed, is masked', async () => {
    const secrets = load();
    recorder = startTimeline(document, withKnownSecrets(BUILT_IN_MASKER, secrets), { bufferSeconds: 60 });
    const pw = document.getElementById('pw') as HTMLInputElement;
    pw.focus();
    for (let n = 1; n <= PASSWORD.length; n++) {
      pw.value = PASSWORD.slice(0, n);
      pw.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await Promise.resolve(); // the mutation observer's turn, as between two real keys
      recorder.checkpoint(`key ${n}`);
    }
    const text = JSON.stringify(recorder.data());
    for (let n = 1; n <= PASSWORD.length; n++) expect(text).not.toContain(`Preview: ${PASSWORD.slice(0, n)}`);
  });

  it('steps: the label of a button showing a revealed value is masked, the typed values withheld', () => {
    const secrets = load();
    const maskerOf = knownSecretsMaskers(secrets);
    const steps: StepObservedMessage[] = [];
    stops.push(observeActions(window, (s) => steps.push(s), () => maskerOf(BUILT_IN_MASKER), { inputDebounceMs: 0, urlPollMs: 0 }));
    typeInto('pw', PASSWORD);
    click('show');
    click('show'); // its name is now "Hide …" and the field is text
    typeInto('reveal', `${PREFILLED}!`); // typed into once shown as text
    (document.getElementById('reveal') as HTMLInputElement).dispatchEvent(new Event('change', { bubbles: true }));
    expectNoneOf(PLANTED, steps);
    const targetOf = (s: StepObservedMessage) => (typeof s.target === 'object' ? s.target : null);
    expect(steps.some((s) => targetOf(s)?.name === 'Hide [credential]')).toBe(true);
    expect(steps.find((s) => targetOf(s)?.selector.includes('reveal') && s.kind === 'input')?.value_redacted).toBe(true);
  });

  it('frames: the echo and the revealed field are sensitive regions', () => {
    const secrets = load();
    const maskerOf = knownSecretsMaskers(secrets);
    typeInto('pw', PASSWORD.slice(0, 2));
    const ranges: string[] = [];
    const elements: string[] = [];
    const rectOf: RectSource = (target) => {
      if ('nodeType' in target) elements.push(target.id);
      else ranges.push(target.toString());
      return [{ left: 0, top: 0, width: 10, height: 10 }];
    };
    collectSensitiveRects(document, maskerOf(BUILT_IN_MASKER), rectOf);
    expect(ranges).toEqual([PASSWORD.slice(0, 2)]); // a short prefix, while typed
    typeInto('pw', PASSWORD);
    click('show');
    ranges.length = elements.length = 0;
    collectSensitiveRects(document, maskerOf(BUILT_IN_MASKER), rectOf);
    expect(ranges).toEqual(expect.arrayContaining([PASSWORD, PREFILLED]));
    expect(elements).toEqual(expect.arrayContaining(['pw', 'reveal']));
  });
});
