/**
 * `agent-flight-recorder/client`: a typed client for agent harnesses that drive Chromium with the
 * Agent Flight Recorder extension loaded, over Playwright or Puppeteer (neither is a dependency).
 */
export { connectRecorder, connectRecorderPuppeteer, type ConnectOptions } from './connect';
export { RecorderClient } from './recorder-client';
export { RECORDER_EXTENSION_ID } from './extension-key';
export { RecorderCallError, RecorderNotFoundError, RecorderTimeoutError, RecorderWorkerLostError } from './errors';
export type {
  AfrCall,
  PlaywrightContextLike,
  PlaywrightWorkerLike,
  PuppeteerBrowserLike,
  PuppeteerTargetLike,
  RecorderWorker,
} from './ports';
export type * from './types';
