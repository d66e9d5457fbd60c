import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { bundleContents, editBundle, editJson, makeBundle, makeV1Bundle } from '../../test/fixtures/cli/make-bundle';
import { ORDER_PATTERN, ORDINARY, PLANTED, makeSecretBundle } from '../../test/fixtures/cli/secret-bundle';
import { openBundleZip, type BundleArchive } from '../bundle-format/open-zip';
import { embeddedDataText, type ViewerData } from '../bundle-format/viewer-html';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { RedactError, redactBundle, type RedactOptions } from './redact-bundle';
import { validateBundle } from './validate-bundle';

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);
const viewer = { version: '0.1.0', script: 'document.title = "viewer";' };
const NOW = new Date(Date.UTC(2026, 10, 23, 9, 30));
const options = (over: Partial<RedactOptions> = {}): RedactOptions => ({ patterns: [new RegExp(ORDER_PATTERN, 'gu')], dropFrames: false, now: NOW, tool: 'afr 0.1.0', viewer, ...over });

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const json = (archive: BundleArchive, name: string) => JSON.parse(decode(archive.files.get(name)!)) as Record<string, unknown>;

/** Every planted secret found in the zip's own bytes or in any file it holds (text files are deflated: read inflated). */
function leaks(zip: Uint8Array, archive: BundleArchive): string[] {
  const found: string[] = [];
  const haystacks: [string, string][] = [['(zip bytes)', Buffer.from(zip).toString('latin1')], ...[...archive.files].map(([name, bytes]): [string, string] => [name, Buffer.from(bytes).toString('latin1')])];
  for (const [name, text] of haystacks) for (const [what, secret] of Object.entries(PLANTED)) if (text.includes(secret)) found.push(`${what} in ${name}`);
  return found;
}

describe('redactBundle', () => {
  const input = makeSecretBundle(viewer.script);

  it('starts from a valid bundle that holds every planted secret in every text file', async () => {
    const archive = await openBundleZip(await input);
    expect((await validateBundle(await input, schemas, async () => viewer)).valid).toBe(true);
    for (const file of ['manifest.json', 'steps.json', 'diagnostics.json', 'snapshot.json', 'snapshots/page-001.json', 'snapshots/page-002.json', 'outline.md', 'viewer.html']) {
      const text = decode(archive.files.get(file)!);
      expect(Object.values(PLANTED).filter((secret) => !text.includes(secret)), file).toEqual([]);
    }
    // summary.md quotes a part of the data: the failure and the agent's last steps.
    for (const secret of [PLANTED.order, PLANTED.jwt, PLANTED.github, PLANTED.aws]) expect(decode(archive.files.get('summary.md')!)).toContain(secret);
  });

  it('leaves no byte of the secrets in any file, keeps ordinary text and the frames, and the result validates', async () => {
    const before = await openBundleZip(await input);
    const result = await redactBundle(before, schemas, options());
    const after = await openBundleZip(result.zip);
    expect(leaks(result.zip, after)).toEqual([]);
    expect((await validateBundle(result.zip, schemas, async () => viewer)).problems).toEqual([]);

    const everything = [...after.files.values()].map(decode).join('\n');
    for (const text of ORDINARY) expect(everything).toContain(text);
    expect(decode(after.files.get('steps.json')!)).toContain('[credential]');
    expect(decode(after.files.get('snapshot.json')!)).toContain('"data-session": "Bearer [credential]"');
    expect(decode(after.files.get('summary.md')!)).toContain('checkout crashed for [redacted]');
    expect(decode(after.files.get('viewer.html')!)).toContain('Checkout [redacted]');
    // The pages at the steps, the steps' changes and the outline built from the pages: masked, still readable.
    expect(decode(after.files.get('snapshots/page-002.json')!)).toContain('"value":"[redacted]"');
    expect(decode(after.files.get('snapshots/page-003.json')!)).toContain('"url":"https://shop.test/submit?jwt=[credential]"');
    const steps = json(after, 'steps.json').steps as { changes?: { to: string; description: string } }[];
    expect(steps[3]?.changes).toMatchObject({ to: 'snapshots/page-002.json', description: 'after typing into Full name: input "Full name" now reads "[redacted]" ([credential])' });
    const outline = decode(after.files.get('outline.md')!);
    expect(outline).toContain('- textbox "Full name" type="text" value="[redacted]"');
    expect(outline).toMatch(/- button "Place order".*◀ target/);
    expect(outline).toContain('(snapshots/page-002.json)');
    const embedded = JSON.parse(embeddedDataText(decode(after.files.get('viewer.html')!))!) as ViewerData;
    expect(embedded.step_snapshots).toEqual(Object.fromEntries([...after.files].filter(([name]) => name.startsWith('snapshots/')).map(([name, bytes]) => [name, decode(bytes)])));
    for (const [name, bytes] of before.files) if (name.startsWith('frames/') || name === 'failure.mp4') expect(after.files.get(name)).toEqual(bytes);
    expect(result.notes).toEqual(['copied 5 files of pixels (frames/, failure.mp4) unchanged: pixels cannot be re-masked, --drop-frames leaves them out']);
    expect(result.counts.patterns[0]).toBeGreaterThanOrEqual(8);
    expect(result.counts.kinds.credential).toBeGreaterThanOrEqual(10);
  });

  it('records the pass in the manifest: when, by what, how many patterns, never the patterns', async () => {
    const result = await redactBundle(await openBundleZip(await input), schemas, options());
    const archive = await openBundleZip(result.zip);
    expect(json(archive, 'manifest.json').redacted_after).toEqual([{ at: '2026-11-23T09:30:00.000Z', tool: 'afr 0.1.0', custom_patterns: 1, frames_dropped: false }]);
    expect(decode(archive.files.get('manifest.json')!)).not.toContain('ORD-\\\\d');
    // A second pass adds to the list.
    const again = await redactBundle(archive, schemas, options({ patterns: [], dropFrames: true }));
    expect(json(await openBundleZip(again.zip), 'manifest.json').redacted_after).toHaveLength(2);
  });

  it('with dropFrames leaves out frames and the clip, and says so in the manifest', async () => {
    const result = await redactBundle(await openBundleZip(await input), schemas, options({ dropFrames: true }));
    const archive = await openBundleZip(result.zip);
    expect([...archive.files.keys()].filter((n) => n.startsWith('frames/') || n === 'failure.mp4')).toEqual([]);
    const manifest = json(archive, 'manifest.json');
    expect(manifest).toMatchObject({ frame_count: 0, frames: [], clip: null, capture_level: 'trace' });
    expect((manifest.artifacts as { name: string }[]).map((a) => a.name)).toEqual([
      'snapshot.json',
      'diagnostics.json',
      'steps.json',
      'snapshots/page-001.json',
      'snapshots/page-002.json',
      'snapshots/page-003.json',
      'summary.md',
      'outline.md',
      'viewer.html',
    ]);
    expect(json(archive, 'diagnostics.json').capture).toMatchObject({ frames_in_bundle: 0 });
    expect(decode(archive.files.get('summary.md')!)).toContain('0 frames over');
    expect((await validateBundle(result.zip, schemas, async () => viewer)).problems).toEqual([]);
  });

  it('keeps the format’s own words, times and file names, even where a pattern matches them', async () => {
    const result = await redactBundle(await openBundleZip(await input), schemas, options({ patterns: [/failure|2026|frame_0001|afr-/gu] }));
    const archive = await openBundleZip(result.zip);
    expect(json(archive, 'manifest.json')).toMatchObject({ status: 'failure', ended_at: '2026-11-22T12:00:00.000Z', bundle_id: 'afr-20261122T120000Z-test01', clip: { name: 'failure.mp4' } });
    expect((json(archive, 'manifest.json').frames as { name: string }[])[0]?.name).toBe('frames/frame_0001.jpeg');
    expect((json(archive, 'steps.json').steps as { action: string }[]).at(-1)?.action).toBe('[redacted]: page_exception');
    expect((await validateBundle(result.zip, schemas, async () => viewer)).problems).toEqual([]);
  });

  it('leaves out a viewer.html it cannot write again, and files that are not part of the format', async () => {
    const zip = await editBundle(await input, (files) => files.set('notes.txt', new TextEncoder().encode(PLANTED.github)));
    const result = await redactBundle(await openBundleZip(zip), schemas, options({ viewer: { ...viewer, version: '9.9.9' } }));
    const archive = await openBundleZip(result.zip);
    expect([...archive.files.keys()]).not.toContain('viewer.html');
    expect([...archive.files.keys()]).not.toContain('notes.txt');
    expect(result.notes).toContain('left out 1 file that are not part of the bundle format: notes.txt');
    expect(result.notes).toContain('left out viewer.html: written by recorder 0.1.0, and this afr writes the viewer of 9.9.9 only (the original embeds the unmasked data)');
    expect((await validateBundle(result.zip, schemas, async () => viewer)).problems).toEqual([]);
  });

  it('writes a version 1 manifest as version 2: the custom rules it carried become counts', async () => {
    const result = await redactBundle(await openBundleZip(await makeV1Bundle()), schemas, options());
    const manifest = json(await openBundleZip(result.zip), 'manifest.json');
    expect(manifest.version).toBe(2);
    expect(JSON.stringify(manifest)).not.toContain('ACME');
  });

  it.each<[string, (files: Map<string, Uint8Array>) => void, RegExp]>([
    ['no steps.json', (files) => files.delete('steps.json'), /^steps\.json: missing from the bundle$/],
    ['a snapshot nested 50,000 deep', (files) => files.set('snapshot.json', new TextEncoder().encode('['.repeat(50_000))), /^snapshot\.json: nested more than 512 levels deep$/],
    ['a manifest off its schema', (files) => editJson(files, 'manifest.json', (m) => (m.tab_id = 'seven')), /^manifest\.json does not match its schema \(afr validate says more\): tab_id: /],
  ])('refuses a bundle with %s in one line', async (_name, edit, message) => {
    const zip = await editBundle(await makeBundle(), edit);
    const error = await redactBundle(await openBundleZip(zip), schemas, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedactError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('adds no problem to a metadata-level bundle (no snapshot, no diagnostics)', async () => {
    const zip = await makeBundle({ ...bundleContents(), snapshot: null, diagnostics: null, frames: [], clip: null, manifest: { ...bundleContents().manifest, capture_level: 'metadata', clip: null } });
    const result = await redactBundle(await openBundleZip(zip), schemas, options({ dropFrames: true }));
    // afr validate asks every bundle for those two files: what it said before, it says after, no more.
    const problems = async (bytes: Uint8Array) => (await validateBundle(bytes, schemas, async () => viewer)).problems;
    expect(await problems(result.zip)).toEqual(await problems(zip));
    expect(result.notes).toEqual([]);
  });
});
