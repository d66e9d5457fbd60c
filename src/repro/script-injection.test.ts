import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from '@puppeteer/replay';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE, hostileSource } from '../../test/fakes/hostile-repro-source';
import { reproPlan } from './repro-plan';
import { devtoolsFlow, writeDevtools } from './write-devtools';
import { writePython } from './write-python';
import { writeTs } from './write-ts';

/*
 * A hostile bundle (every page string tries to end its literal or comment and call `pwned`) through each
 * writer: the script must parse, and `pwned` must never be code, only text inside strings and comments.
 */

const source = hostileSource();
const plan = reproPlan(source);
const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-repro-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every identifier of a TypeScript file, and its syntax errors. */
function tsIdentifiers(text: string): { names: Set<string>; errors: string[] } {
  const file = ts.createSourceFile('repro.spec.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  const errors = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { names, errors };
}

describe.each([false, true])('offline %s', (offline) => {
  it('TypeScript: parses with the compiler API, `pwned` is never an identifier, every line is ASCII', () => {
    const text = writeTs(plan, source.har, { offline, command: `afr repro ${HOSTILE}` });
    const { names, errors } = tsIdentifiers(text);
    expect(errors).toEqual([]);
    expect(names.has('pwned')).toBe(false);
    expect(names).toContain('page');
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
  });

  it('Python: py_compile accepts it, and `pwned` is never a name in its syntax tree', () => {
    const file = path.join(dir, `repro-${offline}.py`);
    writeFileSync(file, writePython(plan, source.har, { offline, command: `afr repro ${HOSTILE}` }));
    execFileSync('python3', ['-m', 'py_compile', file]);
    const names = execFileSync('python3', ['-c', 'import ast,sys; print(sorted({n.id for n in ast.walk(ast.parse(open(sys.argv[1]).read())) if isinstance(n, ast.Name)} | {n.attr for n in ast.walk(ast.parse(open(sys.argv[1]).read())) if isinstance(n, ast.Attribute)}))', file], { encoding: 'utf8' });
    expect(names).not.toContain('pwned');
    expect(names).toContain('page');
  });
});

it('DevTools: the flow is JSON whose strings carry the page text exactly, as data, and @puppeteer/replay parses it', () => {
  const text = writeDevtools(plan);
  expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
  expect(JSON.parse(text)).toEqual(devtoolsFlow(plan));
  expect(parse(JSON.parse(text)).steps.length).toBe(devtoolsFlow(plan).steps.length);
  const change = devtoolsFlow(plan).steps.find((s) => s.type === 'change' && s.value === HOSTILE);
  expect(change).toBeDefined();
});

it('the withheld field is filled from its variable, the hostile name made a plain variable name', () => {
  const text = writeTs(plan, null, { offline: false });
  const env = plan.withheld[0]!.env;
  expect(env).toMatch(/^AFR_[A-Z0-9_]+$/);
  expect(text).toContain(`process.env["${env}"] ?? "person@example.com"`);
});
