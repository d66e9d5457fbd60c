/**
 * The id of this browser session's recording run. Kept in `chrome.storage.session` so it survives
 * service worker restarts but not a browser restart.
 */
export async function loadRunId(): Promise<string> {
  const stored = (await chrome.storage.session.get('runId'))['runId'];
  if (typeof stored === 'string') return stored;
  const runId = `run-${crypto.randomUUID()}`;
  await chrome.storage.session.set({ runId });
  return runId;
}
