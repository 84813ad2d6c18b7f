// Giving a recognition thread's memory back (issue 30: one worker ≤ 700 MiB with both languages loaded).
import v8 from 'node:v8';
import vm from 'node:vm';

type Collector = (options?: {
  type?: 'major' | 'minor';
  execution?: 'sync';
  flavor?: 'regular' | 'last-resort';
}) => void;

let collector: Collector | null | undefined;

function gc(): Collector | null {
  if (collector === undefined) {
    try {
      // V8 gives the collector to contexts created after the flag is set (node's --expose-gc cannot be
      // given to a worker thread); the flag changes nothing else.
      v8.setFlagsFromString('--expose-gc');
      collector = vm.runInNewContext('gc') as Collector;
    } catch {
      collector = null;
    }
  }
  return collector;
}

/**
 * A full collection that also gives the heap's empty pages back to the system (V8's "last resort"
 * collection: compacting, the young generation shrunk). Loading a model rewrites its ONNX graphs as
 * JavaScript objects, which grew the loading thread's heap to 162 MB for 25 MB of live objects; a plain
 * full collection freed the objects but kept the pages: with both languages loaded in one thread, 629 →
 * 507 MiB resident (docs/benchmarks/asr.md). Run at load only: after every chunk it cost about 100 ms a
 * collection on a busy machine.
 */
export function releaseMemory(): void {
  const collect = gc();
  if (!collect) return;
  try {
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    // A V8 without the options object: a plain full collection.
    collect();
  }
}

/**
 * Frees the memory of the buffer `view` covers whole, now (`ArrayBuffer.prototype.transfer(0)` detaches
 * it), rather than at the thread's next collection: ONNX Runtime's outputs, model bytes and handed-over
 * samples live outside the JavaScript heap, and threads that allocate little on their own heap collect
 * rarely, so dead ones piled up between collections (docs/benchmarks/asr.md). A view into a larger buffer,
 * a shared or an already detached one is left alone. The view must not be read again.
 */
export function detachBuffer(view: ArrayBufferView): void {
  const buffer = view.buffer;
  if (view.byteOffset !== 0 || view.byteLength !== buffer.byteLength) return;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached) return;
  try {
    buffer.transfer(0);
  } catch {
    // A buffer that cannot be detached is left to the collector.
  }
}
