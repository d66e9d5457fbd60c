import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageOf, runtimePackagesFrom, scanSource, sourceFiles } from './import-scan';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dependencies = Object.keys(manifest.dependencies);
const declared = [...dependencies, ...Object.keys(manifest.devDependencies)];

/** Where this repository's code is: every import in these counts. */
const SCANNED = ['src', 'entrypoints', 'schemas', 'scripts', 'examples', 'e2e', 'bench', 'test', 'clients', 'bin'];
const CONFIG_FILES = ['wxt.config.ts', 'vitest.config.ts', 'eslint.config.js'];

/**
 * What ships, and where it starts: the extension (every entrypoint, and the standalone viewer the
 * worker inlines into viewer.html through `virtual:afr-viewer-script`), the packaged command line
 * (`scripts/build-cli.ts` bundles it) and the published client. The files the build copies into the
 * extension (`require.resolve` in `scripts/build/`, the ffmpeg.wasm worker and core) ship too.
 */
const SHIPPED_ROOTS = [
  ...sourceFiles(path.join(ROOT, 'entrypoints')).filter((file) => !file.endsWith('.test.ts')),
  path.join(ROOT, 'src/viewer/standalone.ts'),
  path.join(ROOT, 'src/cli/packaged.ts'),
  path.join(ROOT, 'src/client/index.ts'),
];
const COPIED_INTO_EXTENSION = sourceFiles(path.join(ROOT, 'scripts/build')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/require\.resolve\(\s*['"]([^'"]+)['"]/g)].map(([, specifier]) => packageOf(specifier!)!),
);

/** Shipped code imports these, yet they are tools of the build (each with the reason). */
const BUILD_TOOLS_IN_SHIPPED_CODE: Record<string, string> = {
  wxt: 'the build tool; its runtime helpers (`wxt/browser`, `defineBackground`, the content script context) come with it, as in every WXT project',
};

/** Declared and imported nowhere, each with the reason it is needed. */
const USED_WITHOUT_IMPORT: Record<string, string> = {};

/** `@types/x` is used when `x` is, or when a tsconfig names it in `types`. */
function tsconfigTypes(): string[] {
  return ['tsconfig.json', 'tsconfig.client.json'].flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    return (JSON.parse(text) as { compilerOptions?: { types?: string[] } }).compilerOptions?.types ?? [];
  });
}
const typesFor = (name: string) => `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

/** The packages whose command a `package.json` script runs (`tsc` → typescript), from each package's own `bin`. */
function usedByScripts(): string[] {
  const commands = Object.values(manifest.scripts).join(' && ');
  return declared.filter((name) => {
    const { bin } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
    const names = typeof bin === 'string' ? [name.split('/').pop()!] : Object.keys(bin ?? {});
    return names.some((command) => new RegExp(`(^|[\\s;&|(])${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(commands));
  });
}

const files = [...SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir))), ...CONFIG_FILES.map((file) => path.join(ROOT, file))];
const imported = new Map<string, string>();
for (const file of files) {
  for (const { name } of scanSource(readFileSync(file, 'utf8')).packages) if (!imported.has(name)) imported.set(name, path.relative(ROOT, file));
}
imported.delete(manifest.name); // the examples import the published client by its package name

describe('package.json declares what the code uses', () => {
  it('declares every package the code imports', () => {
    const undeclared = [...imported].filter(([name]) => !declared.includes(name)).map(([name, file]) => `${name} (${file})`);
    expect(undeclared).toEqual([]);
  });

  it('declares nothing the code, the scripts or a tsconfig does not use', () => {
    const types = tsconfigTypes().map(typesFor);
    const used = new Set([...imported.keys(), ...usedByScripts(), ...Object.keys(USED_WITHOUT_IMPORT)]);
    const unused = declared.filter((name) => !used.has(name) && !types.includes(name) && ![...used].some((pkg) => typesFor(pkg) === name));
    expect(unused).toEqual([]);
  });

  it('has what ships under dependencies, and only that', () => {
    const shipped = runtimePackagesFrom(SHIPPED_ROOTS);
    for (const name of COPIED_INTO_EXTENSION) shipped.set(name, 'scripts/build (copied into the extension)');
    for (const name of Object.keys(BUILD_TOOLS_IN_SHIPPED_CODE)) shipped.delete(name);
    const onlyDev = [...shipped].filter(([name]) => !dependencies.includes(name)).map(([name, file]) => `${name} (${path.relative(ROOT, file)})`);
    expect(onlyDev).toEqual([]);
    expect(dependencies.filter((name) => !shipped.has(name))).toEqual([]);
  });
});

describe('scanSource', () => {
  it.each([
    ["import { z } from 'zod';", [{ name: 'zod', typeOnly: false }]],
    ["import type { Page } from 'playwright-core';", [{ name: 'playwright-core', typeOnly: true }]],
    ["import { type Browser, type Page as P } from 'puppeteer-core';", [{ name: 'puppeteer-core', typeOnly: true }]],
    ["import puppeteer, { type Browser } from 'puppeteer-core';", [{ name: 'puppeteer-core', typeOnly: false }]],
    ["import {\n  McpServer,\n} from '@modelcontextprotocol/sdk/server/mcp.js';", [{ name: '@modelcontextprotocol/sdk', typeOnly: false }]],
    ["const s3 = await import('@aws-sdk/client-s3');", [{ name: '@aws-sdk/client-s3', typeOnly: false }]],
    ["const dir = path.dirname(require.resolve('@ffmpeg/core'));", [{ name: '@ffmpeg/core', typeOnly: false }]],
    ["const crx3 = createRequire(import.meta.url)('crx3');", [{ name: 'crx3', typeOnly: false }]],
    ["const cli = path.join(ROOT, 'node_modules/@playwright/mcp/cli.js');", [{ name: '@playwright/mcp', typeOnly: false }]],
    ['// @vitest-environment happy-dom', [{ name: 'happy-dom', typeOnly: false }]],
    ["import { readFile } from 'node:fs/promises';\nimport os from 'os';\nimport v from 'virtual:afr-viewer-script';", []],
    // A real line break: the comment starts its line here too, so this file's own scan leaves it out.
    [`/** @example import puppeteer from 'puppeteer'; */
// import x from 'left-out';`, []],
  ])('%s', (source, packages) => {
    expect(scanSource(source).packages).toEqual(packages);
  });

  it('follows only the relative imports that stay at run time', () => {
    expect(scanSource("import { a } from './a';\nimport type { B } from './b';\nexport { c } from '../c';").runtimeRelative).toEqual(['./a', '../c']);
  });
});
