import type { BundleData } from '../bundle-format/bundle-data';
import { clipTimeOfFrame, frameAtClipTime, frameStarts, totalSeconds } from '../bundle-format/frame-time';
import { failureFrame, failureStep, frameOfStep } from '../bundle-format/story';
import { failureTime } from '../bundle-format/views';
import type { BundleMedia } from './bundle-media';
import { renderDiagnostics } from './diagnostics-view';
import { h } from './dom';
import { renderHeader } from './header-view';
import { bindKeys } from './keyboard';
import { renderNetworkPanel } from './network-panel';
import { createTimerPlayback, createVideoPlayback, type Playback } from './playback';
import { renderPagePanel } from './page-panel';
import { renderPlayer } from './player-view';
import { targetMarks } from './target-marks';
import { renderTimeline } from './timeline-view';

export interface ViewerOptions {
  /** Schedules the next sync while playing (`requestAnimationFrame` in a browser). */
  requestFrame?: (callback: () => void) => unknown;
  /** The clock the frame-only playback runs on (ms). */
  now?: () => number;
}

export interface MountedViewer {
  /** The frame on screen. */
  currentFrame(): number;
  showFrame(index: number): void;
  /** The selected step (index in `steps.json`), -1 when none is. */
  selectedStep(): number;
  selectStep(index: number): void;
  dispose(): void;
}

/**
 * Renders a bundle into `root`: header, frame scrubber and clip, timeline, the page (DOM and changes),
 * diagnostics, the network (`network.har`), kept in step with each other. Selecting a step shows its page with its target marked,
 * and its frame (the screen at its time, `bundle-format/story.ts`) with the target drawn. It opens at
 * the failure: the step that failed selected and in view, the screen at the failure shown. The same
 * code runs in the extension page and in `viewer.html`.
 */
export function mountViewer(root: HTMLElement, data: BundleData, media: BundleMedia, options: ViewerOptions = {}): MountedViewer {
  const doc = root.ownerDocument;
  const requestFrame = options.requestFrame ?? ((cb: () => void) => doc.defaultView?.requestAnimationFrame(cb));
  const frames = data.manifest.frames;
  const starts = frameStarts(frames);
  const steps = data.steps.steps;
  const stepFrames = steps.map((step) => frameOfStep(frames, step));
  // The viewport the targets were measured in (CSS px), for frames that do not say their own
  // (bundles written before frames did): the one at the failure. A window resized, a page zoomed
  // during the run is in each frame's own.
  const failureViewport = data.snapshot?.snapshot?.viewport ?? data.diagnostics?.page_metrics?.viewport ?? null;
  let current = -1;
  let selected = -1;
  let looping = false;

  /** The selected step's target, drawn only while the frame of that step is on screen. */
  const drawMarks = () => {
    const step = steps[selected];
    const onItsFrame = step !== undefined && current >= 0 && stepFrames[selected] === current;
    const frame = frames[current];
    player.setMarks(onItsFrame && frame ? targetMarks(step.target, frame.width, frame.viewport ?? failureViewport) : null);
  };

  const show = (index: number, { seek }: { seek: boolean }) => {
    if (frames.length === 0) return;
    const next = Math.max(0, Math.min(frames.length - 1, index));
    if (seek) playback.seek(clipTimeOfFrame(frames, starts, next));
    if (next === current) return;
    current = next;
    player.showFrame(next);
    timeline.setCurrentFrame(next);
    drawMarks();
  };

  const selectStep = (index: number) => {
    if (steps.length === 0) return;
    selected = Math.max(0, Math.min(steps.length - 1, index));
    if (stepFrames[selected]! >= 0) {
      if (playback.isPlaying()) playback.pause();
      show(stepFrames[selected]!, { seek: true });
    }
    timeline.setSelectedStep(selected);
    page.showStep(steps[selected]!, selected);
    network.showStep(selected);
    drawMarks();
  };
  // With no step selected, ↓ starts at the first step and ↑ at the last (the failure).
  const walkSteps = (delta: number) => selectStep(selected < 0 ? (delta > 0 ? 0 : steps.length - 1) : selected + delta);

  // While playing, the clip's clock drives the scrubber, the frame and the timeline.
  const follow = () => {
    show(frameAtClipTime(starts, playback.currentTime()), { seek: false });
    looping = playback.isPlaying();
    if (looping) requestFrame(follow);
  };

  const togglePlay = () => {
    if (frames.length === 0) return;
    if (playback.isPlaying()) {
      playback.pause();
      return;
    }
    playback.play().catch((error: unknown) => useFrameClock(`The clip cannot play here (${String(error)}); play steps through the frames instead.`));
  };

  const stepBy = (delta: number) => {
    if (playback.isPlaying()) playback.pause();
    show(current + delta, { seek: true });
  };

  const player = renderPlayer(data, media, { seekFrame: (index) => show(index, { seek: true }), step: stepBy, togglePlay });
  const network = renderNetworkPanel(data, selectStep);
  const timeline = renderTimeline(data, selectStep, network.waterfall?.requestsOfStep);
  const page = renderPagePanel(data.snapshot, media.stepPage);

  const attach = (p: Playback) => {
    p.onPlayingChange((playing) => {
      if (p !== playback) return;
      player.setPlaying(playing, p.kind === 'clip');
      if (playing && !looping) {
        looping = true;
        requestFrame(follow);
      }
    });
    return p;
  };
  let playback: Playback = attach(player.video ? createVideoPlayback(player.video) : createTimerPlayback(totalSeconds(frames), options.now));

  /** Falls back to stepping through the frames on a clock when the clip cannot be decoded here. */
  function useFrameClock(reason: string) {
    if (playback.kind === 'frames') return;
    const old = playback;
    playback = attach(createTimerPlayback(totalSeconds(frames), options.now));
    old.pause();
    player.setPlaying(false, false);
    player.setNote(reason);
    playback.seek(clipTimeOfFrame(frames, starts, Math.max(0, current)));
  }
  player.video?.addEventListener('error', () => {
    const error = player.video?.error;
    useFrameClock(`The clip cannot play here (${error?.message || `media error ${error?.code ?? '?'}`}); play steps through the frames instead.`);
  });

  root.replaceChildren(
    renderHeader(data),
    h('main', { className: 'afr-main' }, player.element, timeline.element),
    h('div', { className: 'afr-lower' }, page.element, renderDiagnostics(data)),
    network.element,
  );
  root.classList.add('afr-viewer');
  // Open at the failure, as `afr summary` tells it: the failing step selected (its page, its row in
  // view) and the screen at the failure on the stage.
  const failedStep = failureStep(steps, failureTime(data));
  if (failedStep >= 0) selectStep(failedStep);
  show(failureFrame(frames, failureTime(data)), { seek: true });
  // Showing the frame scrolled the timeline to the first step on it: the failing step goes back in view.
  if (failedStep >= 0) timeline.setSelectedStep(failedStep);
  const unbind = bindKeys(doc, { step: stepBy, togglePlay, walkSteps });

  return {
    currentFrame: () => current,
    showFrame: (index) => show(index, { seek: true }),
    selectedStep: () => selected,
    selectStep,
    dispose() {
      unbind();
      playback.pause();
      root.replaceChildren();
    },
  };
}
