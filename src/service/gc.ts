import v8 from 'node:v8';

/**
 * Garbage collection for a process that receives uploads (the api role). Node copies every chunk
 * of a request body into a fresh buffer outside the JS heap, and by default V8 starts a full
 * mark-compact of the whole heap each time ~64 MB of such memory has been allocated since the last
 * one, however little of it is still alive. The api's heap holds ≈75 MB of live objects (GraphQL
 * schema, Prisma, validators), so at intake's rates those full collections cost more CPU than
 * hashing and writing the bytes (bench:intake, 19 MB uploads: 41 mark-compacts for 68 uploads, ~40%
 * of the service's CPU in a perf profile). Counting that memory in V8's global heap limit instead
 * lets the cheap young-generation collections free most of it: 3 mark-compacts for the same run.
 * The price is a higher resident set (≈ +100 MB at 8 concurrent uploads), still independent of
 * upload size. A V8 that no longer knows the flag says so on stderr and carries on as before.
 */
export function tuneGcForUploads(): void {
  v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
}
