import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CopiedAsset } from './copy-ffmpeg-assets';

/** The sizes the icons are drawn at (`npm run icons` renders them from `assets/*.svg`). */
export const ICON_SIZES = [16, 32, 48, 128] as const;

const ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets');

/** The manifest's `icons` and `action.default_icon`: size → path inside the extension. */
export const ICON_PATHS: Record<string, string> = Object.fromEntries(ICON_SIZES.map((size) => [String(size), `icon/${size}.png`]));

/** The rendered icons, copied from `assets/icon/` into the extension's `icon/`. */
export function copyIcons(): CopiedAsset[] {
  return ICON_SIZES.map((size) => ({ absoluteSrc: path.join(ASSETS_DIR, 'icon', `${size}.png`), relativeDest: `icon/${size}.png` }));
}
