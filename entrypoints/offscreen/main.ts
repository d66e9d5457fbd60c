import { ChoosingClipEncoder, readEncoderPreference } from '../../src/clip/encoder-choice';
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
