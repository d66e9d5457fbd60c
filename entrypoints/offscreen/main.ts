import { createOffscreenHandler } from '../../src/clip/offscreen-handler';
import { FfmpegClipEncoder } from '../../src/platform/ffmpeg-encoder';
import { createIdbClipStorage } from '../../src/platform/idb-clip-store';

// Offscreen document: encodes clips for the service worker, which cannot start the ffmpeg.wasm worker.
const handle = createOffscreenHandler({
  storage: createIdbClipStorage(),
  encoder: new FfmpegClipEncoder({ preset: 'ultrafast' }),
  now: () => performance.now(),
});

chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
  // Only the service worker and extension pages may ask; content scripts run next to untrusted pages.
  if (sender.tab) return false;
  const answer = handle(raw);
  if (!answer) return false;
  // onMessage cannot return a promise: answer through sendResponse and keep the channel open.
  // https://crbug.com/1185241
  void answer.then(sendResponse);
  return true;
});
