import { SILENT_DEBUGGER_SWITCH, viewportCutOf, type FrameOfViewport } from '../../schemas/viewport-cut';
import type { BundleData } from '../bundle-format/bundle-data';
import { frameOfStep } from '../bundle-format/story';
import { failureTime } from '../bundle-format/views';
import type { BundleMedia } from './bundle-media';
import { h, svg } from './dom';
import { formatClock, formatOffset } from './format';
import type { TargetMarks } from './target-marks';

export interface PlayerView {
  element: HTMLElement;
  /** The clip element, or null when the bundle has no clip. */
  video: HTMLVideoElement | null;
  showFrame(index: number): void;
  /** `showClip`: the clip plays, so it is shown over the still frame. */
  setPlaying(playing: boolean, showClip: boolean): void;
  /** Says why the clip is not used (frames still play on a clock). */
  setNote(text: string | null): void;
  /** Draws a step's target over the frame on screen (its box, and a red dot where the pointer hit); null clears it. */
  setMarks(marks: TargetMarks | null): void;
}

const PLAY = '\u25B6';

/** What a frame that shows less than its page's viewport is missing, and the fix; empty when it shows it all. */
export function frameCutNote(frame: FrameOfViewport): string {
  const cut = viewportCutOf(frame);
  if (!cut) return '';
  const { viewport, shown } = cut;
  const size = (s: { width: number; height: number }) => `${Math.round(s.width)}\u00D7${Math.round(s.height)}`;
  return `this frame shows ${size(shown)} of the page's ${size(viewport)} viewport (CSS px): the window was smaller than the viewport; launch the browser with ${SILENT_DEBUGGER_SWITCH}`;
}
const PAUSE = '\u2016';

export interface PlayerActions {
  seekFrame(index: number): void;
  step(delta: number): void;
  togglePlay(): void;
}

/**
 * The frame scrubber: the current frame (or the clip while it plays), a range input over the frames
 * with a tick per step, previous / play / next buttons, and the frame's capture time.
 */
export function renderPlayer(data: BundleData, media: BundleMedia, actions: PlayerActions): PlayerView {
  const { manifest, steps } = data;
  const frames = manifest.frames;
  const failureTs = failureTime(data);
  const clipError = data.diagnostics?.clip_error ?? null;
  const last = Math.max(0, frames.length - 1);
  const image = h('img', { className: 'afr-frame', attrs: { alt: 'frame of the failing tab', draggable: 'false' }, data: { testid: 'frame-image' } });
  const video = media.clipUrl === null ? null : h('video', { className: 'afr-clip', attrs: { preload: 'auto', playsinline: '', muted: '' }, data: { testid: 'clip' } });
  if (video) {
    video.muted = true;
    video.src = media.clipUrl!;
  }
  const emptyStage = frames.length === 0 ? h('p', { className: 'afr-empty' }, `This bundle has no frames (capture level: ${manifest.capture_level}).`) : null;
  // Same box as the frame and the same fitting (viewBox + meet is what object-fit: contain does to the
  // image), so marks drawn in the frame's own pixels land on the frame wherever it is letterboxed.
  const marksLayer = svg('svg', { class: 'afr-marks', 'data-testid': 'target-marks', preserveAspectRatio: 'xMidYMid meet', 'aria-hidden': 'true' });
  // An inner <svg> the frame's size clips the marks to the frame: a target the frame does not show
  // (below a window smaller than the page's viewport) is not drawn on the letterbox beside it.
  const marksFrame = svg('svg', { x: 0, y: 0 });
  marksLayer.append(marksFrame);
  const marksNote = h('span', { className: 'afr-marks-note', data: { testid: 'target-note' } });
  // A frame that shows less than the page's viewport says so, and how to fix it (bundles of any age).
  const cutNote = h('span', { className: 'afr-marks-note', data: { testid: 'frame-cut' } });
  let shown: { width: number; height: number } | null = null;
  const stage = h('div', { className: 'afr-stage' }, emptyStage, frames.length === 0 ? null : image, video, frames.length === 0 ? null : marksLayer);

  const range = h('input', {
    className: 'afr-range',
    attrs: { type: 'range', min: '0', max: String(last), step: '1', value: '0', 'aria-label': 'frame' },
    data: { testid: 'scrubber' },
    on: { input: () => actions.seekFrame(Number(range.value)) },
  });
  range.disabled = frames.length === 0;
  // One tick per step above the scrubber, at the frame it belongs to; failure signals in red.
  const ticks = h('div', { className: 'afr-ticks', attrs: { 'aria-hidden': 'true' } });
  for (const step of steps.steps) {
    const index = frameOfStep(frames, step);
    if (index < 0) continue;
    const tick = h('span', { className: `afr-tick afr-kind-${step.kind}`, title: step.action });
    tick.style.left = `${last === 0 ? 0 : (index / last) * 100}%`;
    ticks.appendChild(tick);
  }

  const button = (label: string, title: string, onClick: () => void, testid: string) =>
    h('button', { className: 'afr-control', title, attrs: { type: 'button', 'aria-label': title }, data: { testid }, on: { click: onClick } }, label);
  // Glyphs from the Latin-1/general punctuation and geometric shapes blocks: every system font has them.
  const playButton = button(PLAY, 'play / pause (space)', () => actions.togglePlay(), 'play');
  const counter = h('span', { className: 'afr-counter', data: { testid: 'frame-counter' } });
  const time = h('span', { className: 'afr-frame-time', data: { testid: 'frame-time' } });
  const note = h('p', { className: 'afr-note' });
  note.hidden = true;

  const element = h(
    'section',
    { className: 'afr-panel afr-player' },
    stage,
    h(
      'div',
      { className: 'afr-controls' },
      button('\u2039', 'previous frame (\u2190)', () => actions.step(-1), 'previous'),
      playButton,
      button('\u203A', 'next frame (\u2192)', () => actions.step(1), 'next'),
      h('div', { className: 'afr-scrubber' }, ticks, range),
      counter,
    ),
    h('div', { className: 'afr-frame-info' }, time, marksNote, cutNote, manifest.clip ? h('span', { className: 'afr-clip-info' }, `clip ${manifest.clip.duration_seconds.toFixed(1)} s \u00B7 ${manifest.clip.encoder}`) : h('span', { className: 'afr-clip-info' }, clipError ? `no clip: ${clipError}` : 'no clip')),
    note,
  );

  return {
    element,
    video,
    showFrame(index) {
      const frame = frames[index];
      if (!frame) return;
      shown = frame;
      marksLayer.setAttribute('viewBox', `0 0 ${frame.width} ${frame.height}`);
      marksFrame.setAttribute('width', String(frame.width));
      marksFrame.setAttribute('height', String(frame.height));
      const url = media.frameUrl(frame.name);
      if (url !== null && image.getAttribute('src') !== url) image.src = url;
      image.dataset.frame = frame.name;
      range.value = String(index);
      counter.textContent = `frame ${index + 1} / ${frames.length}`;
      // An entry for identical captures in a row: the same picture was on screen until its last capture.
      const repeated = frame.captures && frame.last_ts !== undefined ? ` \u00B7 unchanged over ${frame.captures} captures until ${formatOffset(frame.last_ts - failureTs)}` : '';
      time.textContent = `${formatClock(frame.ts)} UTC \u00B7 ${formatOffset(frame.ts - failureTs)} \u00B7 ${frame.width}\u00D7${frame.height}${repeated}`;
      cutNote.textContent = frameCutNote(frame);
    },
    setPlaying(playing, showClip) {
      stage.classList.toggle('afr-playing', playing && showClip && video !== null);
      playButton.textContent = playing ? PAUSE : PLAY;
      playButton.setAttribute('aria-pressed', String(playing));
    },
    setNote(text) {
      note.hidden = text === null;
      note.textContent = text ?? '';
    },
    setMarks(marks) {
      marksFrame.replaceChildren();
      marksNote.textContent = '';
      if (marks === null || shown === null) return;
      // Sizes in CSS px of the page, scaled like the frame: the dot is as big as Playwright's trace draws it.
      const px = (css: number) => css * marks.scale;
      if (marks.rect) {
        const { x, y, width, height } = marks.rect;
        marksFrame.append(svg('rect', { class: 'afr-mark-rect', 'data-testid': 'target-rect', x, y, width, height, 'stroke-width': px(2) }));
      }
      if (marks.point) {
        marksFrame.append(svg('circle', { class: 'afr-mark-point', 'data-testid': 'target-point', cx: marks.point.x, cy: marks.point.y, r: px(10), 'stroke-width': px(2) }));
      }
      const place = marks.point ?? (marks.rect && { x: marks.rect.x + marks.rect.width / 2, y: marks.rect.y + marks.rect.height / 2 });
      if (place && !(place.x >= 0 && place.y >= 0 && place.x < shown.width && place.y < shown.height)) {
        marksNote.textContent = "the step's target is outside this frame (the window showed less of the page than its viewport)";
      }
    },
  };
}
