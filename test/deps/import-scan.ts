import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** One package a source file uses, and whether only its types are (erased from what runs). */
export interface PackageUse {
  name: string;
  typeOnly: boolean;
}

/** What one source file refers to: packages, and its own relative imports that stay in what runs. */
export interface FileScan {
  packages: PackageUse[];
  runtimeRelative: string[];
}

const SOURCE = /\.(ts|mts|js|mjs)$/;
const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for relative paths, Node's own modules and virtual ids. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? null : name;
}

/** An `import { type A, type B } from 'x'`: only types, though not marked `import type`. */
const onlyTypeMembers = (clause: string) => /^\{\s*(type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?\s*)+\}$/.test(clause.trim());

/**
 * The packages a file uses and its relative imports that are kept at run time. Counted: `import`/`export`
 * … `from`, side-effect `import 'x'`, `import('x')`, `require('x')`, `require.resolve('x')` (a file
 * copied or loaded by path), `createRequire(…)('x')`, a `node_modules/<name>/` path, and vitest's
 * `@vitest-environment <name>` comment. Comments are dropped first: JSDoc `@example`s import packages
 * a reader would use, not this repository.
 */
export function scanSource(text: string): FileScan {
  const packages: PackageUse[] = [];
  const runtimeRelative: string[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const name = packageOf(specifier);
    if (name) packages.push({ name, typeOnly });
    else if (specifier.startsWith('.') && !typeOnly) runtimeRelative.push(specifier);
  };
  for (const [, env] of text.matchAll(/@vitest-environment\s+([\w@/.-]+)/g)) add(env!, false);
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const [, keyword, type, clause, specifier] of code.matchAll(/(?:^|[\s;])(import|export)\s+(type\s+)?(?:([^'";]*?)\s*from\s*)?['"]([^'"\n]+)['"]/g)) {
    add(specifier!, Boolean(type) || (keyword === 'import' && clause !== undefined && onlyTypeMembers(clause)));
  }
  for (const [, specifier] of code.matchAll(/\b(?:import|require|require\.resolve)\s*\(\s*['"]([^'"\n]+)['"]\s*[,)]/g)) add(specifier!, false);
  for (const [, specifier] of code.matchAll(/\bcreateRequire\([^)]*\)\(\s*['"]([^'"\n]+)['"]/g)) add(specifier!, false);
  for (const [, name] of code.matchAll(/node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/g)) add(name!, false);
  return { packages, runtimeRelative };
}

/** Every source file (`.ts`, `.mts`, `.js`, `.mjs`) under `dir`, skipping dependencies and build output. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !/[/\\](node_modules|dist|\.output|\.wxt)[/\\]/.test(file));
}

/** The file a relative import names, as the bundlers resolve it (`./x` → `x.ts`, `x/index.ts`; `./x.js` → `x.ts`). */
export function resolveRelative(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.mts`, base.replace(/\.js$/, '.ts'), path.join(base, 'index.ts')];
  return candidates.find((file) => SOURCE.test(file) && existsSync(file)) ?? null;
}

/** The packages the files reachable from `roots` import at run time (type-only imports are erased). */
export function runtimePackagesFrom(roots: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...roots];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const scan = scanSource(readFileSync(file, 'utf8'));
    for (const use of scan.packages) if (!use.typeOnly && !found.has(use.name)) found.set(use.name, file);
    for (const specifier of scan.runtimeRelative) {
      const next = resolveRelative(file, specifier);
      if (next) queue.push(next);
    }
  }
  return found;
}
