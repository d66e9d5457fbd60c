import { describe, expect, it } from 'vitest';
import { renderJsonSchemas } from '../../schemas/generate';
import { bundleContents, editBundle, makeBundle, makeV1Bundle } from '../../test/fixtures/cli/make-bundle';
import { networkHar } from '../../test/fixtures/cli/network-har';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import { loadExpectedViewer } from './node-io';
import { validateBundle } from './validate-bundle';
import { sameJson, type ExpectedViewer } from './viewer-check';

const rendered = renderJsonSchemas();
const schemas: BundleJsonSchemas = Object.fromEntries(
  Object.entries(bundleSchemaFileNames()).map(([file, schemaFile]) => [file, JSON.parse(rendered[schemaFile] ?? '{}') as object]),
);
const VIEWER: ExpectedViewer = { version: '0.1.0', script: 'document.title = "viewer";' };
const withViewer = makeBundle({ viewerScript: VIEWER.script });

/** The problems `afr validate` finds with viewer.html itself (not its size in the manifest, which an edit changes too). */
async function viewerProblems(zip: Uint8Array): Promise<string[]> {
  const report = await validateBundle(zip, schemas, async () => VIEWER);
  return report.problems.filter((p) => p.file === 'viewer.html' && p.pointer === '').map((p) => p.message);
}

/** The bundle with its viewer.html edited as text. */
const editViewer = async (edit: (html: string) => string) =>
  editBundle(await withViewer, (files) => files.set('viewer.html', new TextEncoder().encode(edit(new TextDecoder().decode(files.get('viewer.html'))))));

describe('afr validate on viewer.html', () => {
  it('accepts the page this version writes, and asks for the viewer only when there is one', async () => {
    expect(await viewerProblems(await withViewer)).toEqual([]);
    let asked = 0;
    await validateBundle(await makeBundle(), schemas, async () => (asked++, VIEWER));
    expect(asked).toBe(0);
  });

  it.each<[string, (html: string) => string, RegExp]>([
    ['a swapped script (a beacon)', (html) => html.replace(VIEWER.script, 'new Image().src = "https://evil.test/b.png";'), /^its script is not the viewer recorder 0\.1\.0 writes .*do not open it$/],
    ['a script added to the page', (html) => html.replace('</body>', '<script>fetch("https://evil.test")</script></body>'), /^the page around the viewer differs/],
    ["a CSP loosened to 'unsafe-inline'", (html) => html.replace(/script-src '[^']+'/, "script-src 'unsafe-inline'"), /^the page around the viewer differs .*\(its CSP, elements or attributes were changed\)/],
    ['an image added to the page', (html) => html.replace('<body>', '<body><img src="https://evil.test/b.png">'), /^the page around the viewer differs/],
    ['changed styles', (html) => html.replace('<style>', '<style>body{background:url(https://evil.test/c.png)}'), /^its styles are not the ones recorder 0\.1\.0 writes/],
    ['no data element', (html) => html.replace('id="afr-data"', 'id="other"'), /^carries no bundle data element/],
    ['data that is not JSON', (html) => html.replace('id="afr-data">{', 'id="afr-data">{,'), /^its bundle data is not valid JSON/],
    ['data nested too deep', (html) => html.replace('id="afr-data">{', `id="afr-data">{"x":${'['.repeat(600)}${']'.repeat(600)},`), /^its bundle data is nested more than 512 levels deep$/],
  ])('reports %s', async (_what, edit, message) => {
    const problems = await viewerProblems(await editViewer(edit));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('reports a page that shows other data than the files, even when it is this version’s page', async () => {
    const zip = await editViewer((html) => html.replace('"failure_label":"checkout crashed"', '"failure_label":"all good, nothing to see"'));
    expect(await viewerProblems(zip)).toEqual(["its embedded manifest.json is not the bundle's manifest.json: the viewer would show other data than the files"]);
  });

  it('embeds network.har for the offline Network panel, and reports an embedded HAR that is not the zip’s', async () => {
    const zip = await makeBundle({ viewerScript: VIEWER.script, har: networkHar() });
    expect(await viewerProblems(zip)).toEqual([]);
    const html = (edit: (text: string) => string) => editBundle(zip, (files) => files.set('viewer.html', new TextEncoder().encode(edit(new TextDecoder().decode(files.get('viewer.html'))))));
    const other = await html((text) => text.replace('token_expired', 'all fine'));
    expect(await viewerProblems(other)).toEqual(["its embedded network.har is not the bundle's network.har: the viewer would show other data than the files"]);
  });

  it('says a bundle of another recorder version cannot be checked, rather than changed', async () => {
    const other = await makeBundle({ viewerScript: 'document.title = "older viewer";', manifest: { ...bundleContents().manifest, extension: { name: 'Agent Flight Recorder', version: '0.0.9' } } });
    expect(await viewerProblems(other)).toEqual([
      'written by another recorder version (0.0.9, manifest version 2; this afr checks recorder 0.1.0, manifest version 2): its script cannot be checked, open it only if you trust where the bundle comes from',
    ]);
    const v1 = await editBundle(await makeV1Bundle(), (files) => files.set('viewer.html', new TextEncoder().encode('<!doctype html><script>old</script>')));
    expect(await viewerProblems(v1)).toEqual([expect.stringMatching(/^written by another recorder version \(0\.1\.0, manifest version 1; /) as string]);
  });
});

describe('the viewer of this checkout', () => {
  it('is the version of package.json and the script the build makes; a bundle written with it is valid', async () => {
    const expected = await loadExpectedViewer();
    expect(expected.version).toBe(bundleContents().manifest.extension.version);
    const zip = await makeBundle({ viewerScript: expected.script });
    expect((await validateBundle(zip, schemas, async () => expected)).problems).toEqual([]);
  }, 60_000);
});

describe('sameJson', () => {
  it.each<[unknown, unknown, boolean]>([
    [{ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [2, 1], false],
    [{ a: [] }, { a: {} }, false],
    [null, {}, false],
    ['1', 1, false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });
});
