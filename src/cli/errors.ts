/** A mistake in how the CLI was called (exit 2), as opposed to a refused operation (exit 1). */
export class UsageError extends Error {
  override name = 'UsageError';
}
