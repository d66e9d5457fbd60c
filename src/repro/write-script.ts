import type { HarFile } from '../../schemas/network';
import type { ReproPlan } from './repro-plan';
import type { ScriptOptions } from './script-header';
import { writeDevtools } from './write-devtools';
import { writePython } from './write-python';
import { writeTs } from './write-ts';

/** The scripts `afr repro` writes: a Playwright test, Playwright for Python, a DevTools Recorder flow. */
export const REPRO_LANGS = ['ts', 'python', 'devtools'] as const;
export type ReproLang = (typeof REPRO_LANGS)[number];

/** The script of `lang` for a plan. */
export function writeReproScript(lang: ReproLang, plan: ReproPlan, har: HarFile | null, options: ScriptOptions): string {
  if (lang === 'python') return writePython(plan, har, options);
  if (lang === 'devtools') return writeDevtools(plan);
  return writeTs(plan, har, options);
}
