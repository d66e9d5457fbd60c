import type { BundleSummary, Status } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import { downloadButton, viewerLink } from './bundle-actions';
import { h } from './dom';
import { errorMessage } from '../shared/error-message';
import { formatAgo, formatBytes, formatDuration, formatFps, plural } from './format';
import type { UiPorts } from './ports';
import { recordTabToggle } from './record-tab-toggle';
import { describeDebugger } from './debugger-note';

const RECENT_BUNDLES = 5;

/** The popup's words for the recorder's state. */
export function describeState(status: Pick<Status, 'recording' | 'paused'>): 'Paused' | 'Recording' | 'Not recording' {
  if (status.paused) return 'Paused';
  return status.recording ? 'Recording' : 'Not recording';
}

/** The ring's figures as the popup shows them. */
export function ringFigures(status: Status, settings: Pick<Settings, 'bufferSeconds' | 'maxBufferBytes'>) {
  return {
    // How much of the window the ring covers: it keeps older frames too (a still page's last one,
    // the after-failure tail's margin), which make the window no longer.
    seconds: `${formatDuration(status.oldestFrameAgeMs === null ? null : Math.min(status.oldestFrameAgeMs, settings.bufferSeconds * 1000))} of ${settings.bufferSeconds} s`,
    frames: String(status.frames),
    bytes: `${formatBytes(status.bytes)} of ${formatBytes(settings.maxBufferBytes)}`,
    capture: [
      `visibleTab \u00B7 ${formatFps(status.fps)}`,
      status.captureErrors ? `${plural(status.captureErrors, 'error')} (${status.quotaErrors} quota)` : '',
      // Frames whose sensitive regions were not known in time are dropped rather than stored unmasked.
      status.droppedFrames ? `${status.droppedFrames} dropped for masking` : '',
    ]
      .filter(Boolean)
      .join(' \u00B7 '),
  };
}

/** The tab's debugger: on, or off and why (a person may have closed Chrome's "started debugging" bar). */
function debuggerBadge(tab: Status['tabs'][number]): Node {
  const { text, title } = describeDebugger(tab);
  return h('span', { className: `badge ${tab.signals}`, title, data: { testid: 'debugger-state' } }, text);
}

const figure = (label: string, testid: string, value: string) => [h('dt', null, label), h('dd', { data: { testid } }, value)];

function renderStatus(status: Status, settings: Settings): Node[] {
  const ring = ringFigures(status, settings);
  const run = status.run.active
    ? `${status.runId}${status.run.agent ? ` \u00B7 ${status.run.agent}${status.run.agentVersion ? ` ${status.run.agentVersion}` : ''}` : ''}${status.run.task ? ` \u00B7 ${status.run.task}` : ''}`
    : null;
  const tabs = status.tabs.length
    ? h(
        'ul',
        { className: 'tabs', data: { testid: 'tabs' } },
        ...status.tabs.map((t) =>
          h(
            'li',
            { data: { tabId: String(t.tabId) } },
            h('span', { className: 'url', title: t.url ?? '' }, t.url ?? '(no URL)'),
            t.recorded ? null : h('span', { className: 'badge', data: { testid: 'not-recorded' } }, 'not recorded (outside the scope)'),
            debuggerBadge(t),
          ),
        ),
      )
    : h('p', { className: 'muted', data: { testid: 'tabs' } }, 'No web page is visible in a normal window: nothing is captured.');
  const nodes: (Node | null)[] = [
    h(
      'dl',
      { className: 'figures' },
      ...figure('Held', 'ring-seconds', ring.seconds),
      ...figure('Frames', 'ring-frames', ring.frames),
      ...figure('Memory', 'ring-bytes', ring.bytes),
      ...figure('Capture', 'capture', ring.capture),
      ...figure('Level', 'capture-level', status.captureLevel),
      ...figure('Persist', 'persist-mode', status.persistMode),
      ...(run ? figure('Run', 'run', run) : []),
    ),
    status.lastCaptureError ? h('p', { className: 'error small', data: { testid: 'capture-error' } }, `Last capture error: ${status.lastCaptureError}`) : null,
    status.storage.quotaErrors
      ? h('p', { className: 'error small', data: { testid: 'storage-error' } }, `Storage is running out (${plural(status.storage.quotaErrors, 'quota error')}): the ring keeps fewer frames${status.storage.framesInMemory ? `, ${plural(status.storage.framesInMemory, 'frame')} in memory only` : ''}.${status.storage.lastError ? ` ${status.storage.lastError}` : ''}`)
      : null,
    h('h2', null, 'Recorded tabs'),
    tabs,
  ];
  return nodes.filter((n): n is Node => n !== null);
}

/**
 * The action popup: the ring's state, refreshed every `intervalMs` while open, pause/resume,
 * "Save bundle now", the last bundles, links to the library and the settings. Returns a stop function.
 */
export function mountPopup(root: HTMLElement, ports: UiPorts, { intervalMs = 1000 } = {}): () => void {
  const state = h('span', { className: 'state', data: { testid: 'state' } }, '\u2026');
  const statusBox = h('div', { data: { testid: 'status' } }, h('p', { className: 'muted' }, 'Reading the recorder\u2026'));
  const problem = h('p', { className: 'error', attrs: { role: 'alert' }, data: { testid: 'status-error' } });
  const message = h('p', { className: 'message', attrs: { role: 'status' }, data: { testid: 'action-message' } });
  const recent = h('ul', { className: 'bundles', data: { testid: 'recent-bundles' } });
  const pause = h('button', { attrs: { type: 'button' }, data: { testid: 'pause-toggle' } }, 'Pause');
  const save = h('button', { attrs: { type: 'button' }, data: { testid: 'save-bundle' } }, 'Save bundle now');
  let paused = false;
  let bundleCount: number | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const notify = (text: string, isError = false, link: Node | null = null) => {
    message.replaceChildren(text, ...(link ? [' ', link] : []));
    message.classList.toggle('error', isError);
  };

  const scopeBox = recordTabToggle(ports, (status) => void refresh(status), notify);
  const showStatus = (status: Status, settings: Settings) => {
    paused = status.paused;
    state.textContent = describeState(status);
    state.dataset.state = state.textContent.toLowerCase().replace(' ', '-');
    pause.textContent = paused ? 'Resume' : 'Pause';
    statusBox.replaceChildren(...renderStatus(status, settings));
    void scopeBox.update(status);
    problem.textContent = '';
  };

  const showBundles = async () => {
    const bundles = await ports.call('listBundles');
    bundleCount = bundles.length;
    recent.replaceChildren(...(bundles.length ? bundles.slice(0, RECENT_BUNDLES).map((b) => bundleItem(b)) : [h('li', { className: 'muted' }, 'No bundles yet.')]));
  };
  const bundleItem = (b: BundleSummary) =>
    h(
      'li',
      { data: { bundleId: b.id, reason: b.reason } },
      h('div', null, h('strong', null, b.reason), b.label ? ` ${b.label}` : ''),
      h('div', { className: 'muted small' }, `${formatAgo(Date.parse(b.createdAt), ports.now())} \u00B7 ${formatBytes(b.sizeBytes)}${b.url ? ` \u00B7 ${b.url}` : ''}`),
      h('div', { className: 'row' }, downloadButton(ports, b, notify), viewerLink(ports, b.id)),
    );

  /** Reads the status (or shows the one given) and the settings. */
  const refresh = async (given?: Status) => {
    try {
      const [status, settings] = await Promise.all([given ?? ports.call('status'), ports.call('getSettings')]);
      if (stopped) return;
      showStatus(status, settings);
      if (status.bundles !== bundleCount) await showBundles();
    } catch (error) {
      problem.textContent = `The recorder does not answer: ${errorMessage(error)}`;
    }
  };
  const tick = async () => {
    await refresh();
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };

  pause.addEventListener('click', async () => {
    pause.disabled = true;
    try {
      const status = await ports.call(paused ? 'resume' : 'pause');
      showStatus(status, await ports.call('getSettings'));
    } catch (error) {
      notify(`${paused ? 'Resume' : 'Pause'} failed: ${errorMessage(error)}`, true);
    } finally {
      pause.disabled = false;
    }
  });
  save.addEventListener('click', async () => {
    save.disabled = true;
    notify('Saving a bundle of the visible tab\u2026');
    try {
      const tab = await ports.visibleWebTab();
      const id = await ports.call('saveBundle', tab ? { tabId: tab.tabId } : {});
      notify(`Saved ${id}.`, false, viewerLink(ports, id));
      message.dataset.bundleId = id;
      await showBundles();
    } catch (error) {
      notify(`Not saved: ${errorMessage(error)}`, true);
    } finally {
      save.disabled = false;
    }
  });

  root.replaceChildren(
    h('header', { className: 'popup-header' }, h('h1', null, 'Agent Flight Recorder'), state),
    problem,
    statusBox,
    scopeBox.node,
    h('div', { className: 'row actions' }, pause, save),
    message,
    h('h2', null, 'Recent bundles'),
    recent,
    h(
      'footer',
      { className: 'row' },
      h('a', { attrs: { href: ports.pageUrl('library.html'), target: '_blank', rel: 'noopener' }, data: { testid: 'library-link' } }, 'Bundle library'),
      h('a', { attrs: { href: ports.pageUrl('options.html'), target: '_blank', rel: 'noopener' }, data: { testid: 'settings-link' } }, 'Settings'),
    ),
  );
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
