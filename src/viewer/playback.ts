/** What drives "play": the clip when it can play here, else a clock over the frames' durations. */
export interface Playback {
  readonly kind: 'clip' | 'frames';
  /** Seconds from the start of the clip. */
  currentTime(): number;
  seek(seconds: number): void;
  play(): Promise<void>;
  pause(): void;
  isPlaying(): boolean;
  /** Called when playing starts or stops (including at the end). */
  onPlayingChange(listener: (playing: boolean) => void): void;
}

/** Plays `failure.mp4` through a `<video>` element. */
export function createVideoPlayback(video: HTMLVideoElement): Playback {
  const listeners: ((playing: boolean) => void)[] = [];
  const notify = () => listeners.forEach((l) => l(!video.paused));
  video.addEventListener('play', notify);
  video.addEventListener('pause', notify);
  video.addEventListener('ended', notify);
  return {
    kind: 'clip',
    currentTime: () => video.currentTime,
    seek(seconds) {
      video.currentTime = seconds;
    },
    async play() {
      if (video.ended) video.currentTime = 0;
      await video.play();
    },
    pause: () => video.pause(),
    isPlaying: () => !video.paused && !video.ended,
    onPlayingChange: (listener) => listeners.push(listener),
  };
}

/** Steps through the frames on a clock when there is no playable clip. */
export function createTimerPlayback(durationSeconds: number, now: () => number = () => performance.now()): Playback {
  const listeners: ((playing: boolean) => void)[] = [];
  let position = 0;
  let startedAt: number | null = null;
  const current = () => (startedAt === null ? position : Math.min(durationSeconds, position + (now() - startedAt) / 1000));
  const stop = () => {
    if (startedAt === null) return;
    position = current();
    startedAt = null;
    listeners.forEach((l) => l(false));
  };
  return {
    kind: 'frames',
    currentTime() {
      const t = current();
      // Reaching the end stops playback, as a video's `ended` does.
      if (startedAt !== null && t >= durationSeconds) stop();
      return t;
    },
    seek(seconds) {
      position = Math.max(0, Math.min(durationSeconds, seconds));
      if (startedAt !== null) startedAt = now();
    },
    async play() {
      if (startedAt !== null) return;
      if (position >= durationSeconds) position = 0;
      startedAt = now();
      listeners.forEach((l) => l(true));
    },
    pause: stop,
    isPlaying: () => startedAt !== null,
    onPlayingChange: (listener) => listeners.push(listener),
  };
}
