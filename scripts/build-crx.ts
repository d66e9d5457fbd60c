// Packages the built extension for a fleet (`npm run crx`): a signed `.crx` and the update manifest
// (gupdate XML) that Chrome's `ExtensionInstallForcelist` policy points at, both served from one base
// URL. The extension id comes from the signing key, so keep the key: the same key signs every version,
// and the policy's id and `3rdparty.extensions.<id>` block stay valid.
//
//   AFR_CRX_KEY=/secure/afr.pem AFR_CRX_BASE_URL=https://updates.example.com/afr npm run crx
//
// Without AFR_CRX_KEY a key is made once and kept in `.crx-key/` (git-ignored).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const crx3 = createRequire(import.meta.url)('crx3') as (files: string[], options: { keyPath: string; crxPath: string }) => Promise<unknown>;

/** Where a key made here is kept when `AFR_CRX_KEY` names none. */
export const DEFAULT_CRX_KEY = path.join(root, '.crx-key', 'agent-flight-recorder.pem');
/** The file name of the update manifest under the base URL. */
export const UPDATE_MANIFEST_FILE = 'updates.xml';

export interface FleetPackageOptions {
  /** The built, unpacked extension (`.output/chrome-mv3`). */
  extensionDir: string;
  outDir: string;
  /** A PEM private key; made (RSA 2048, mode 0600) when the file does not exist. */
  keyPath: string;
  /** Where `updates.xml` and the `.crx` will be served from, e.g. `https://updates.example.com/afr`. */
  baseUrl: string;
}

export interface FleetPackage {
  /** The extension id Chrome derives from the key: the id of the forcelist entry and of the policy block. */
  id: string;
  version: string;
  crxPath: string;
  updateManifestPath: string;
  /** `<id>;<base>/updates.xml`: one entry of `ExtensionInstallForcelist`. */
  forcelistEntry: string;
  keyCreated: boolean;
}

/** Chrome's extension id of a public key: the first 128 bits of the SHA-256 of its DER, in letters a–p. */
export function extensionIdOf(publicKeyDer: Uint8Array): string {
  const digest = createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 32);
  return [...digest].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}

/** The gupdate response Chrome's extension updater reads (https://developer.chrome.com/docs/extensions/how-to/distribute/host-on-linux). */
export function updateManifestXml(id: string, version: string, crxUrl: string): string {
  const attr = (s: string) => s.replaceAll('&', '&amp;').replaceAll("'", '&apos;').replaceAll('<', '&lt;');
  return `<?xml version='1.0' encoding='UTF-8'?>
<gupdate xmlns='http://www.google.com/update2/response' protocol='2.0'>
  <app appid='${attr(id)}'>
    <updatecheck codebase='${attr(crxUrl)}' version='${attr(version)}' />
  </app>
</gupdate>
`;
}

/** Signs the extension into `<outDir>/agent-flight-recorder-<version>.crx` and writes `<outDir>/updates.xml`. */
export async function buildFleetPackage({ extensionDir, outDir, keyPath, baseUrl }: FleetPackageOptions): Promise<FleetPackage> {
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) throw new Error(`no built extension in ${extensionDir}: run npm run build`);
  const base = baseUrl.replace(/\/+$/, '');
  const keyCreated = !existsSync(keyPath);
  if (keyCreated) {
    mkdirSync(path.dirname(keyPath), { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(keyPath, 0o600);
  }
  const publicDer = createPublicKey(createPrivateKey(readFileSync(keyPath))).export({ type: 'spki', format: 'der' });
  const id = extensionIdOf(publicDer);

  // A copy whose manifest names the signing key (Chrome takes the id from the CRX's key; the manifest's
  // `key`, which pins the unpacked build's id, must agree) and the update URL Chrome checks for new versions.
  const stage = mkdtempSync(path.join(os.tmpdir(), 'afr-crx-'));
  try {
    cpSync(extensionDir, stage, { recursive: true });
    const manifestPath = path.join(stage, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; key?: string; update_url?: string };
    manifest.key = publicDer.toString('base64');
    manifest.update_url = `${base}/${UPDATE_MANIFEST_FILE}`;
    writeFileSync(manifestPath, JSON.stringify(manifest));

    mkdirSync(outDir, { recursive: true });
    const crxName = `agent-flight-recorder-${manifest.version}.crx`;
    const crxPath = path.join(outDir, crxName);
    await crx3([manifestPath], { keyPath, crxPath });
    const updateManifestPath = path.join(outDir, UPDATE_MANIFEST_FILE);
    writeFileSync(updateManifestPath, updateManifestXml(id, manifest.version, `${base}/${crxName}`));
    return { id, version: manifest.version, crxPath, updateManifestPath, forcelistEntry: `${id};${manifest.update_url}`, keyCreated };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const keyPath = process.env.AFR_CRX_KEY ? path.resolve(process.env.AFR_CRX_KEY) : DEFAULT_CRX_KEY;
  const result = await buildFleetPackage({
    extensionDir: path.join(root, process.env.AFR_OUT_DIR ?? '.output', 'chrome-mv3'),
    outDir: path.join(root, process.env.AFR_OUT_DIR ?? '.output', 'crx'),
    keyPath,
    baseUrl: process.env.AFR_CRX_BASE_URL ?? 'http://127.0.0.1:8080',
  });
  if (result.keyCreated) console.log(`made a signing key: ${keyPath} (keep it: it is the extension id)`);
  console.log(`extension id:    ${result.id}`);
  console.log(`crx:             ${result.crxPath}`);
  console.log(`update manifest: ${result.updateManifestPath}`);
  console.log(`serve both under ${process.env.AFR_CRX_BASE_URL ?? 'http://127.0.0.1:8080'}; ExtensionInstallForcelist entry:`);
  console.log(`  ${result.forcelistEntry}`);
}
