/** A mistake in the command line (flags, arguments, --input): exit 2 with the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
