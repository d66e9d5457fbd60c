/**
 * What reading a failure costs a model, on a real bundle (`npm run demo` writes one to bundles/):
 *   npx tsx bench/read-cost.ts bundles/<id>.zip
 * The reads an agent makes first (the summary, the first page of steps, the frame at the failure, the
 * DOM outline at the failure), each as the text `afr` and `afr mcp` return, measured with a
 * tokenizer-free proxy (characters / 4), and the frame's PNG by its size and pixels. Printed, never
 * asserted.
 */
import { readFileSync } from 'node:fs';
import { encodePngNode } from '../src/cli/png-node';
import { DEFAULT_DOM_OPTIONS, readDom } from '../src/reads/dom-outline';
import { DEFAULT_FRAME_OPTIONS, readFrame } from '../src/reads/frames';
import { openBundle } from '../src/reads/open-bundle';
import { pageRequest } from '../src/reads/paging';
import { domText, frameText, stepsText, summaryText, type Asker } from '../src/reads/render-text';
import { listSteps } from '../src/reads/steps';
import { readSummary } from '../src/reads/summary';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/read-cost.ts <bundle.zip>');
const zip = new Uint8Array(readFileSync(file));
const ask: Asker = (read, args) => `get_${read} ${JSON.stringify({ bundle: 'afr-…', ...args })}`;

const reader = await openBundle(zip);
const summary = await readSummary(reader);
const reads: [string, string][] = [
  ['summary', summaryText(summary, ask).join('\n')],
  ['steps (page 1)', stepsText(await listSteps(reader, pageRequest()), ask).join('\n')],
];
const frame = await readFrame(reader, { atMs: 0 }, DEFAULT_FRAME_OPTIONS, encodePngNode);
reads.push(['frame at the failure (text)', frameText(frame, null).join('\n')]);
reads.push(['DOM outline at the failure', domText(await readDom(reader, DEFAULT_DOM_OPTIONS), ask).join('\n')]);

const tokens = (text: string) => Math.ceil(text.length / 4);
console.log(`bundle ${summary.bundle_id}: ${zip.byteLength} bytes, ${summary.counts.steps} steps, ${summary.counts.frames} frames`);
let total = 0;
for (const [name, text] of reads) {
  total += tokens(text);
  console.log(`${name.padEnd(30)} ${String(text.length).padStart(6)} chars ~${String(tokens(text)).padStart(5)} tokens`);
}
// Anthropic documents an image's cost as about width × height / 750 tokens.
const imageTokens = Math.ceil((frame.width * frame.height) / 750);
console.log(`${'frame image'.padEnd(30)} ${frame.width}x${frame.height} PNG, ${frame.png.byteLength} bytes (${Math.ceil((frame.png.byteLength * 4) / 3)} as base64), ~${imageTokens} tokens at w*h/750`);
console.log(`${'total'.padEnd(30)} ~${total} text tokens + the image (~${total + imageTokens} in all)`);
