// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StepObservedMessageSchema, type StepObservedMessage } from '../../schemas/messages';
import { observeActions } from './observe-actions';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const builtIn = () => BUILT_IN_MASKER;


let steps: StepObservedMessage[];
let dispose: () => void;

function type(el: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  for (let i = 1; i <= text.length; i++) {
    el.value = text.slice(0, i);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    vi.advanceTimersByTime(50);
  }
}

function $(selector: string): HTMLInputElement {
  return document.querySelector(selector) as HTMLInputElement;
}

beforeEach(() => {
  vi.useFakeTimers();
  history.replaceState(null, '', '/checkout?token=abc');
  document.body.innerHTML = `<form id="f">
      <label>Password <input id="pw" type="password"></label>
      <label>Email <input id="email" type="email"></label>
      <input id="otp" name="otp" autocomplete="one-time-code">
      <label>Notes <input id="notes" name="notes"></label>
      <select id="size" name="size"><option value="s">S</option><option value="m">M</option></select>
      <input id="terms" type="checkbox">
      <button id="pay" type="submit"><span>Pay <b>now</b></span></button>
    </form>`;
  steps = [];
  dispose = observeActions(window, (s) => steps.push(s), builtIn, { urlPollMs: 0 });
});

afterEach(() => {
  dispose();
  vi.useRealTimers();
});

const kinds = () => steps.map((s) => `${s.kind}:${s.action}`);

describe('observeActions', () => {
  it('emits one navigate step on start, with a redacted URL', () => {
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ kind: 'navigate', action: 'navigate', url: 'http://localhost:3000/checkout?token=REDACTED' });
  });

  it.each(['#pw', '#email', '#otp'])('never emits the value typed into %s', (selector) => {
    const secret = selector === '#email' ? 'jane@example.com' : 'S3cret-typed-914271';
    type($(selector), secret);
    vi.advanceTimersByTime(1000);
    const typed = steps.filter((s) => s.kind === 'input');
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatchObject({ action: 'type', value: null, value_redacted: true });
    expect(JSON.stringify(steps)).not.toContain(secret);
  });

  it('debounces typing into one step with the final, masked value', () => {
    type($('#notes'), 'call 415-555-0134');
    expect(steps.filter((s) => s.kind === 'input')).toHaveLength(0);
    vi.advanceTimersByTime(400);
    const typed = steps.filter((s) => s.kind === 'input');
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatchObject({ value: 'call [phone]', value_redacted: false, target: { tag: 'input', name: 'Notes' } });
  });

  it('dates a typed value at its last character, not when it is sent (after a pause, or as the page is left)', () => {
    type($('#notes'), 'hi');
    const lastTyped = Date.now() - 50; // `type` waits 50 ms after each character
    vi.advanceTimersByTime(400);
    type($('#email'), 'jo');
    const emailTyped = Date.now() - 50;
    vi.advanceTimersByTime(200);
    // Leaving the page: a cross-site navigation may have started the next page's document before this.
    window.dispatchEvent(new Event('pagehide'));
    expect(steps.filter((s) => s.kind === 'input').map((s) => s.ts)).toEqual([lastTyped, emailTyped]);
  });

  it('emits click steps named after the control around the clicked node', () => {
    document.querySelector('b')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    expect(steps.at(-1)).toMatchObject({ kind: 'click', action: 'click', target: { tag: 'button', role: 'button', name: 'Pay now', selector: '#pay' } });
  });

  it('flushes pending typing before Enter, and emits Enter', () => {
    const notes = $('#notes');
    type(notes, 'hello');
    notes.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(kinds().slice(1)).toEqual(['input:type', 'key:press Enter']);
    notes.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    notes.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }));
    expect(kinds().slice(1)).toEqual(['input:type', 'key:press Enter', 'key:press Shift+Tab']);
  });

  it('records selects, checkboxes and submits', () => {
    const size = document.getElementById('size') as HTMLSelectElement;
    size.value = 'm';
    size.dispatchEvent(new Event('change', { bubbles: true }));
    const terms = $('#terms');
    terms.checked = true;
    terms.dispatchEvent(new Event('change', { bubbles: true }));
    document.getElementById('f')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(kinds().slice(1)).toEqual(['change:select', 'change:check', 'submit:submit']);
    expect(steps[1]).toMatchObject({ value: 'm' });
    expect(steps[3]?.target).toMatchObject({ tag: 'form', selector: '#f' });
  });

  it("marks steps of events the page's script dispatched as synthetic, and only those", () => {
    // Input from the browser (a person, Playwright, CDP) is trusted; what page script dispatches is not.
    const as = <E extends Event>(e: E, isTrusted: boolean): E => Object.defineProperty(e, 'isTrusted', { value: isTrusted });
    const notes = $('#notes');
    notes.dispatchEvent(as(new MouseEvent('click', { bubbles: true }), false));
    notes.dispatchEvent(as(new MouseEvent('click', { bubbles: true }), true));
    notes.value = 'hi';
    notes.dispatchEvent(as(new Event('input', { bubbles: true }), false));
    vi.advanceTimersByTime(1_000);
    notes.dispatchEvent(as(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }), true));
    expect(steps.slice(1).map((s) => [`${s.kind}:${s.action}`, s.synthetic ?? false])).toEqual([
      ['click:click', true],
      ['click:click', false],
      ['input:type', true],
      ['key:press Enter', false],
    ]);
    expect(steps.every((s) => StepObservedMessageSchema.safeParse(s).success)).toBe(true);
    expect(Object.keys(steps[2]!)).not.toContain('synthetic');
  });

  it('emits a navigate step when the URL changed since the last event', () => {
    history.pushState(null, '', '/done?email=a@b.io');
    $('#notes').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(kinds().slice(1)).toEqual(['navigate:navigate', 'click:click']);
    expect(steps[1]?.url).toBe('http://localhost:3000/done?email=REDACTED');
  });

  it('polls the URL for navigations no event reveals', () => {
    dispose();
    steps = [];
    dispose = observeActions(window, (s) => steps.push(s), builtIn, { urlPollMs: 500 });
    history.pushState(null, '', '/spa-route');
    vi.advanceTimersByTime(500);
    expect(kinds()).toEqual(['navigate:navigate', 'navigate:navigate']);
  });

  it('sees clicks inside open shadow roots', () => {
    const host = document.createElement('x-card');
    document.body.append(host);
    host.attachShadow({ mode: 'open' }).innerHTML = '<button id="inner">Buy</button>';
    host.shadowRoot!.getElementById('inner')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    expect(steps.at(-1)?.target).toMatchObject({ tag: 'button', name: 'Buy', selector: '#inner' });
  });

  it('records typing into a contenteditable element, masked', () => {
    const editor = document.createElement('div');
    editor.contentEditable = 'true';
    document.body.append(editor);
    editor.textContent = 'write to bob@example.com';
    editor.dispatchEvent(new Event('input', { bubbles: true }));
    vi.advanceTimersByTime(400);
    expect(steps.at(-1)).toMatchObject({ kind: 'input', action: 'type', value: 'write to [email]', value_redacted: false });
  });

  it('emits steps that match the step/observed message schema', () => {
    type($('#notes'), 'x');
    vi.advanceTimersByTime(400);
    $('#pay').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    for (const s of steps) expect(StepObservedMessageSchema.safeParse(s).success).toBe(true);
  });

  it('never throws into the page when the recorder fails', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    dispose();
    dispose = observeActions(window, () => {
      throw new Error('boom');
    }, builtIn, { urlPollMs: 0 });
    expect(() => $('#pay').dispatchEvent(new MouseEvent('click', { bubbles: true }))).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[afr\]/), expect.any(Error));
  });

  it('stops listening once disposed', () => {
    dispose();
    $('#pay').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    type($('#notes'), 'late');
    vi.advanceTimersByTime(1000);
    expect(steps).toHaveLength(1);
  });
});

describe('the place of each action in the DOM timeline', () => {
  it("asks for a checkpoint before each action and sends it with the step, with the target's node, rect and point", () => {
    const place = vi.fn((label: string) => ({ checkpoint: { document_id: 'doc', seq: label.startsWith('click') ? 1 : 2 }, node: 9, rect: { x: 1, y: 2, width: 30, height: 10 }, point: { x: 5, y: 6 } }));
    dispose();
    steps = [];
    dispose = observeActions(window, (s) => steps.push(s), builtIn, { urlPollMs: 0, place });
    document.getElementById('email')!.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 5, clientY: 6, detail: 1 }));
    const click = steps.find((s) => s.kind === 'click')!;
    expect(StepObservedMessageSchema.parse(click)).toMatchObject({ checkpoint: { document_id: 'doc', seq: 1 }, target: { node: 9, rect: { x: 1, y: 2, width: 30, height: 10 }, point: { x: 5, y: 6 } } });
    expect(place).toHaveBeenCalledWith(expect.stringMatching(/^click input/), expect.anything(), { x: 5, y: 6 });
  });

  it('sends the step as before when there is no timeline', () => {
    dispose();
    steps = [];
    dispose = observeActions(window, (s) => steps.push(s), builtIn, { urlPollMs: 0, place: () => null });
    document.getElementById('email')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const click = steps.find((s) => s.kind === 'click')!;
    expect(click.checkpoint).toBeUndefined();
    expect(click.target).not.toHaveProperty('node');
  });
});
