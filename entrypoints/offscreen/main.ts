import { ChoosingClipEncoder, readEncoderPreference } from '../../src/clip/encoder-choice';
import { browser, type Browser } from 'wxt/browser';
import { createOffscreenHandler } from '../../src/clip/offscreen-handler';
import { FfmpegClipEncoder } from '../../src/platform/ffmpeg-encoder';
import { createIdbClipStorage } from '../../src/platform/idb-clip-store';
import { WebCodecsClipEncoder } from '../../src/platform/webcodecs-encoder';

// Offscreen document: encodes clips for the service worker, which has neither VideoEncoder nor workers.
// WebCodecs first; ffmpeg.wasm (loaded only if needed) where WebCodecs is missing or fails.
// `?encoder=webcodecs|ffmpeg` pins one of them, for tests and benchmarks only.
const encoder = new ChoosingClipEncoder({
  preference: readEncoderPreference(location.search),
  webcodecs: new WebCodecsClipEncoder(),
  ffmpeg: new FfmpegClipEncoder({ preset: 'ultrafast' }),
});
const handle = createOffscreenHandler({ storage: createIdbClipStorage(), encoder, now: () => performance.now() });

browser.runtime.onMessage.addListener((raw: unknown, sender: Browser.runtime.MessageSender, sendResponse: (answer: unknown) => void) => {
  // Only the service worker and extension pages may ask; content scripts run next to untrusted pages.
  if (sender.tab) return false;
  const answer = handle(raw);
  if (!answer) return false;
  // Chrome's onMessage cannot take a promise (https://crbug.com/1185241): `true` keeps the channel
  // open until `sendResponse`. The answer never rejects (see createOffscreenHandler).
  void answer.then(sendResponse);
  return true;
});
