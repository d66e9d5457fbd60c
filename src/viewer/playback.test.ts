import { describe, expect, it, vi } from 'vitest';
import { createTimerPlayback } from './playback';

describe('timer playback', () => {
  it('advances with the clock while playing, stops at the end and restarts from the beginning', async () => {
    let t = 0;
    const playback = createTimerPlayback(2, () => t);
    const changes = vi.fn();
    playback.onPlayingChange(changes);
    await playback.play();
    t = 500;
    expect(playback.currentTime()).toBeCloseTo(0.5);
    playback.pause();
    t = 5000;
    expect(playback.currentTime()).toBeCloseTo(0.5);
    await playback.play();
    t = 9000;
    expect(playback.currentTime()).toBe(2);
    expect(playback.isPlaying()).toBe(false);
    expect(changes.mock.calls).toEqual([[true], [false], [true], [false]]);
    await playback.play();
    expect(playback.currentTime()).toBe(0);
  });

  it('seeks within the clip', () => {
    const playback = createTimerPlayback(2, () => 0);
    playback.seek(1.5);
    expect(playback.currentTime()).toBe(1.5);
    playback.seek(7);
    expect(playback.currentTime()).toBe(2);
  });
});
