// The encoder thread takes the chunks waiting for it longest first (MoonshineThreads.feedEncoder), so the
// last a call has encoded — what is left to decode once its encoder is done — are its shortest; a chunk
// passed over too often goes next whatever its length.
import { describe, expect, it } from 'vitest';
import { longestWaiting } from '../../src/transcription/moonshine-threads.ts';

const chunk = (id: number, samples: number) => ({
  task: {
    request: { id, samples: new Float32Array(samples), language: 'en' },
    transfer: [],
    resolve() {},
    reject() {},
  },
  passedOver: 0,
});

describe('the order chunks are encoded in', () => {
  it('takes the longest chunk waiting, the earlier of two as long', () => {
    expect(longestWaiting([3, 9, 5, 9].map((n, id) => chunk(id, n)))).toBe(1);
    expect(longestWaiting([chunk(0, 4)])).toBe(0);
  });

  it('does not hold a short chunk back for ever behind longer ones coming after it', () => {
    const queue = [chunk(0, 1)];
    let taken = 0;
    while (queue.some((w) => w.task.request.id === 0)) {
      // Each time one is taken, a longer one has come.
      queue.push(chunk(taken + 1, 100));
      queue.splice(longestWaiting(queue), 1);
      taken++;
    }
    expect(taken).toBe(17);
  });
});
