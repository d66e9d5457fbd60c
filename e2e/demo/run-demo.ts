/**
 * `npm run demo`: launches Chromium with the built extension, lets a scripted agent shop on the demo
 * site until checkout fails with a server error, copies the bundle the recorder wrote to `bundles/`
 * (the zip, and its files beside it so `viewer.html` opens from disk), and says how to read it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchWithRecorder, ROOT_DIR } from '../support/launch';
import { startSiteServer } from '../support/site-server';
import { runDemoAgent } from './demo-agent';

async function main(): Promise<void> {
  const site = await startSiteServer();
  const browser = await launchWithRecorder();
  const started = Date.now();
  try {
    const { id, zip, bundle } = await runDemoAgent(browser, site.origin, (line) => console.log(line));
    const outDir = path.join(ROOT_DIR, 'bundles');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${id}.zip`);
    writeFileSync(file, zip);
    // The zip's files beside it: viewer.html reads its frames and clip by relative path.
    const folder = path.join(outDir, id);
    for (const [name, data] of bundle.files) {
      const target = path.join(folder, name);
      if (!target.startsWith(folder + path.sep)) continue; // a name the writer would never give
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, data);
    }
    const m = bundle.manifest;
    console.log('\nAgent Flight Recorder caught the failure:');
    console.log(`  reason   ${m.failure_reason}${m.failure_message ? ` (${m.failure_message})` : ''}`);
    console.log(`  url      ${m.url_at_failure}`);
    console.log(`  frames   ${m.frame_count} over ${((Date.parse(m.ended_at) - Date.parse(m.started_at)) / 1000).toFixed(1)} s`);
    console.log(`  clip     ${m.clip ? `failure.mp4, ${m.clip.duration_seconds.toFixed(1)} s (${m.clip.encoder})` : `none (${bundle.diagnostics.clip_error ?? 'disabled'})`}`);
    const redactedSteps = bundle.steps.steps.filter((s) => s.value_redacted).length;
    const redactedFields = Object.values(bundle.diagnostics.redaction.fields).reduce((a, b) => a + (b ?? 0), 0);
    console.log(`  steps    ${m.step_count} (${redactedSteps} typed into sensitive fields, values withheld)`);
    console.log(`  snapshot ${bundle.snapshot.snapshot ? `${bundle.snapshot.snapshot.node_count} nodes of ${bundle.snapshot.snapshot.url}, ${redactedFields} sensitive fields withheld` : bundle.snapshot.error}`);
    console.log(`  size     ${(zip.byteLength / 1024).toFixed(0)} KiB`);
    console.log(`  bundle   ${path.relative(process.cwd(), file)}`);
    console.log(`  (demo ran ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const zipPath = path.relative(process.cwd(), file);
    console.log('\nOpen it:');
    console.log(`  in a browser   ${pathToFileURL(path.join(folder, 'viewer.html')).href}`);
    console.log(`                 (the zip's own viewer.html, extracted; elsewhere: unzip ${zipPath} -d <folder>, open <folder>/viewer.html)`);
    console.log(`  in a terminal  npx afr summary ${zipPath}`);
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
