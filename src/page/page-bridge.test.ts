// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToBackgroundMessageSchema } from '../../schemas/messages';
import { checkFlatMessage, startPageBridge, type PageBridgeMessage } from './page-bridge';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const builtIn = () => BUILT_IN_MASKER;


const SRC = 'agent-flight-recorder';
let emitted: PageBridgeMessage[];
let warnings: string[];
let clock: number;
let dispose: () => void;

function post(data: unknown, source: unknown = window): void {
  window.dispatchEvent(new MessageEvent('message', { data, source: source as Window }));
}

beforeEach(() => {
  emitted = [];
  warnings = [];
  clock = 1_000_000;
  dispose = startPageBridge(window, (m) => emitted.push(m), builtIn, { now: () => clock, warn: (m) => warnings.push(m) });
});
afterEach(() => dispose());

describe('startPageBridge accepts the page protocol', () => {
  it('turns a fail message into an agent/command, masked', () => {
    post({ source: SRC, type: 'fail', reason: 'assertion_failed', label: 'cart total for jane@example.com' });
    expect(emitted).toEqual([
      { type: 'agent/command', ts: clock, url: 'http://localhost:3000/', command: { kind: 'fail', reason: 'assertion_failed', label: 'cart total for [email]' } },
    ]);
    expect(ToBackgroundMessageSchema.safeParse(emitted[0]).success).toBe(true);
  });

  it('turns a step message into an agent/command step, masked', () => {
    post({ source: SRC, type: 'step', action: 'type 4111 1111 1111 1111', target: '#card', outcome: 'ok', label: 'pay', reasoning: 'the card is jane@example.com’s' });
    expect(emitted[0]).toMatchObject({
      type: 'agent/command',
      command: { kind: 'step', action: 'type [card]', target: '#card', outcome: 'ok', label: 'pay', reasoning: 'the card is [email]’s' },
    });
    for (const m of emitted) expect(ToBackgroundMessageSchema.safeParse(m).success).toBe(true);
  });

  it.each([
    [{ type: 'assert', label: 'total is $10', passed: false, expected: '$10', actual: '$12' }, { kind: 'assert', passed: false, actual: '$12' }],
    [{ type: 'mark', label: 'checkout reached' }, { kind: 'mark', label: 'checkout reached' }],
    [{ type: 'runStart', runId: 'run-42', agent: 'shop-bot', agentVersion: '1.2', task: 'buy shoes' }, { kind: 'runStart', runId: 'run-42', task: 'buy shoes' }],
    [{ type: 'runEnd', outcome: 'passed' }, { kind: 'runEnd', outcome: 'passed' }],
  ])('forwards %j', (message, command) => {
    post({ source: SRC, ...message });
    expect(warnings).toEqual([]);
    expect(emitted[0]).toMatchObject({ type: 'agent/command', command });
    expect(ToBackgroundMessageSchema.safeParse(emitted[0]).success).toBe(true);
  });
});

describe('startPageBridge takes the page\'s checkpoint as a step is posted', () => {
  it('names the checkpoint of a step, an assertion and a mark, and asks none for the other commands', () => {
    dispose();
    const labels: string[] = [];
    dispose = startPageBridge(window, (m) => emitted.push(m), builtIn, { now: () => clock, checkpoint: (label) => (labels.push(label), { document_id: 'doc', seq: labels.length }) });
    post({ source: SRC, type: 'step', action: 'open the shop' });
    post({ source: SRC, type: 'assert', label: 'cart shows 2', passed: true });
    post({ source: SRC, type: 'mark', label: 'checkout' });
    post({ source: SRC, type: 'runEnd', outcome: 'passed' });
    expect(labels).toEqual(['step open the shop', 'assert cart shows 2', 'mark checkout']);
    expect(emitted.map((m) => m.checkpoint)).toEqual([{ document_id: 'doc', seq: 1 }, { document_id: 'doc', seq: 2 }, { document_id: 'doc', seq: 3 }, undefined]);
    for (const m of emitted) expect(ToBackgroundMessageSchema.safeParse(m).success).toBe(true);
  });
});

describe('startPageBridge ignores malformed messages with one warning each', () => {
  const huge = 'x'.repeat(2 * 1024 * 1024);
  it.each([
    ['missing reason', { source: SRC, type: 'fail' }],
    ['empty reason', { source: SRC, type: 'fail', reason: '' }],
    ['non-string reason', { source: SRC, type: 'fail', reason: 42 }],
    ['object reason', { source: SRC, type: 'fail', reason: { toString: 'x' } }],
    ['2 MB reason', { source: SRC, type: 'fail', reason: huge }],
    ['reason just over the cap', { source: SRC, type: 'fail', reason: 'r'.repeat(1025) }],
    ['step without action', { source: SRC, type: 'step', target: '#x' }],
    ['bad outcome', { source: SRC, type: 'step', action: 'a', outcome: 'maybe' }],
    ['assert without passed', { source: SRC, type: 'assert', label: 'x' }],
    ['assert with a string for passed', { source: SRC, type: 'assert', label: 'x', passed: 'yes' }],
    ['runStart with a bad run id', { source: SRC, type: 'runStart', runId: 'a b/c' }],
    ['huge array', { source: SRC, type: 'step', action: new Array(1_000_000).fill('a') }],
    ['nested junk', { source: SRC, type: 'fail', reason: 'r', label: { a: { b: { c: [1, 2, 3] } } } }],
    ['deep object', { source: SRC, type: 'fail', reason: 'r', extra: JSON.parse('['.repeat(500) + ']'.repeat(500)) }],
    ['many fields', Object.fromEntries([['source', SRC], ['type', 'fail'], ...Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v'])])],
    ['unknown field', { source: SRC, type: 'fail', reason: 'r', extra: 'x' }],
    ['unknown type', { source: SRC, type: 'explode', reason: 'r' }],
    ['step over the total cap', { source: SRC, type: 'step', action: 'a'.repeat(10_000), target: 't'.repeat(10_000) }],
    ['a Date', Object.assign(new Date(), { source: SRC, type: 'fail', reason: 'r' })],
  ])('%s', (_name, data) => {
    post(data);
    expect(emitted).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^page message ignored/);
  });

  it.each([
    [{ source: SRC, type: 'step', target: '#x' }, '"step": action: Invalid input: expected string, received undefined'],
    [{ source: SRC, type: 'assert', label: 'x', passed: 'yes' }, '"assert": passed: Invalid input: expected boolean, received string'],
    [{ source: SRC, type: 'step', action: 'a', outcome: 'maybe' }, '"step": outcome: Invalid option: expected one of "ok"|"fail"'],
    [{ source: SRC, type: 'fail', reason: 'r', extra: 'x' }, '"fail": Unrecognized key: "extra"'],
    [{ source: SRC, type: 'explode', reason: 'r' }, 'type "explode" is none of fail, step, assert, mark, runStart, runEnd'],
    [{ source: SRC, type: 'toString', reason: 'r' }, 'type "toString" is none of fail, step, assert, mark, runStart, runEnd'],
    [{ source: SRC, reason: 'r' }, 'type undefined is none of fail, step, assert, mark, runStart, runEnd'],
    // The agent's model and tool calls are the agent's alone (`afr.toolCall`, `afr.modelCall`): no page may post one.
    [{ source: SRC, type: 'toolCall', tool: 'search', status: 'ok' }, 'type "toolCall" is none of fail, step, assert, mark, runStart, runEnd'],
    [{ source: SRC, type: 'modelCall', model: 'gpt-4o' }, 'type "modelCall" is none of fail, step, assert, mark, runStart, runEnd'],
  ])('says which field of %j is wrong', (data, reason) => {
    post(data);
    expect(emitted).toEqual([]);
    expect(warnings).toEqual([`page message ignored: ${reason}`]);
  });

  it.each([
    ['another source tag', { source: 'someone-else', type: 'fail', reason: 'r' }],
    ['no source', { type: 'fail', reason: 'r' }],
    ['a string', 'agent-flight-recorder'],
    ['null', null],
    ['a huge array', new Array(100_000).fill(SRC)],
  ])('ignores %s silently', (_name, data) => {
    post(data);
    expect(emitted).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('ignores messages from other windows', () => {
    post({ source: SRC, type: 'fail', reason: 'r' }, null);
    expect(emitted).toEqual([]);
  });
});

describe('startPageBridge rate limits', () => {
  it('passes 100 steps at once, then 50 per second', () => {
    for (let i = 0; i < 150; i++) post({ source: SRC, type: 'step', action: `a${i}` });
    expect(emitted).toHaveLength(100);
    clock += 1000;
    for (let i = 0; i < 80; i++) post({ source: SRC, type: 'step', action: `b${i}` });
    expect(emitted).toHaveLength(150);
  });

  it('passes at most 5 fails per 10 s', () => {
    for (let i = 0; i < 10; i++) post({ source: SRC, type: 'fail', reason: 'r' });
    expect(emitted).toHaveLength(5);
    clock += 10_000;
    for (let i = 0; i < 10; i++) post({ source: SRC, type: 'fail', reason: 'r' });
    expect(emitted).toHaveLength(10);
  });

  it('warns at most 20 times per 10 s and says how many it suppressed', () => {
    for (let i = 0; i < 500; i++) post({ source: SRC, type: 'bogus' });
    expect(warnings).toHaveLength(20);
    clock += 10_000;
    post({ source: SRC, type: 'bogus' });
    expect(warnings[20]).toMatch(/480 more warnings suppressed/);
  });

  it('never throws when emit fails', () => {
    dispose();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    dispose = startPageBridge(window, () => {
      throw new Error('boom');
    }, builtIn);
    expect(() => post({ source: SRC, type: 'fail', reason: 'r' })).not.toThrow();
    expect(warn).toHaveBeenCalledOnce();
  });
});

describe('checkFlatMessage', () => {
  const limits = { maxKeys: 3, maxStringChars: 5, maxTotalChars: 8 };
  it.each([
    [{ a: 'x', b: null, c: undefined }, null],
    [{ a: 'xxxxxx' }, 'field "a" is too long'],
    [{ a: 'xxxx', b: 'xxxx', c: 'x' }, 'message is too long'],
    [{ a: 1 }, 'field "a" is not a string'],
    [{ a: '', b: '', c: '', d: '' }, 'too many fields'],
    [[], 'not an object'],
    [Object.create({ inherited: true }), 'not a plain object'],
    [Object.create(null), null],
  ])('%j → %s', (data, problem) => {
    expect(checkFlatMessage(data, limits)).toBe(problem);
  });
});
