/**
 * `agent-flight-recorder/client`: a typed client for agent harnesses that drive Chromium with the
 * Agent Flight Recorder extension loaded, over Playwright or Puppeteer (neither is a dependency).
 */
export { connectRecorder, connectRecorderPuppeteer, type ConnectOptions } from './connect';
export { RecorderClient } from './recorder-client';
export { RECORDER_EXTENSION_ID } from './extension-key';
export { RecorderCallError, RecorderLoadError, RecorderNotFoundError, RecorderTimeoutError, RecorderWorkerLostError } from './errors';
export { loadRecorder, type BrowserCdpSessionLike } from './load-recorder';
export { recorderLaunchArgs, SILENT_DEBUGGER_SWITCH } from './launch-args';
export { bridgeTestSteps, type BridgeOptions, type StepRecorder, type TestStepHost } from './test-step-bridge';
export type {
  AfrCall,
  PlaywrightContextLike,
  PlaywrightWorkerLike,
  PuppeteerBrowserLike,
  PuppeteerTargetLike,
  RecorderWorker,
} from './ports';
export type * from './types';
