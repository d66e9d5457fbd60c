#!/usr/bin/env node
// The e2e suite in its two phases (e2e/playwright.config.ts): the capture-timing and machine-wide specs one at a time,
// then the rest two spec files at a time, the second phase run even when the first failed, so that one
// run reports every failure. Extra arguments (a spec file, `-g`)
// go to both phases; a phase they select nothing in passes.
import { spawnSync } from 'node:child_process';
import process from 'node:process';

const args = process.argv.slice(2);
const phase = (project, ...more) =>
  spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', `--project=${project}`, '--pass-with-no-tests', ...more, ...args], { stdio: 'inherit' }).status ?? 1;

const timing = phase('one-at-a-time');
const rest = phase('rest', '--workers=2');
process.exit(timing || rest);
