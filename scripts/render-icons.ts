/**
 * Renders the toolbar and store icons (`assets/icon/<size>.png`) from their SVG sources with the
 * Chromium the tests use, so the PNGs are reproducible: `npm run icons`, then commit both.
 * The 16 and 32 px icons come from `icon-small.svg` (drawn on a 16 px grid: fewer, thicker strokes);
 * the 48 and 128 px ones from `icon.svg`.
 */
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from '../e2e/support/launch';
import { ICON_SIZES } from './build/copy-icons';

const ASSETS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets');

const sourceFor = (size: number) => (size <= 32 ? 'icon-small.svg' : 'icon.svg');

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    mkdirSync(path.join(ASSETS, 'icon'), { recursive: true });
    for (const size of ICON_SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      const svg = readFileSync(path.join(ASSETS, sourceFor(size)), 'utf8');
      const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
      await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`);
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
      writeFileSync(path.join(ASSETS, 'icon', `${size}.png`), png);
      await page.close();
      console.log(`assets/icon/${size}.png from ${sourceFor(size)}`);
    }
  } finally {
    await browser.close();
  }
}

await main();
