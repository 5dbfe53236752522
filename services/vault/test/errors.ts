/** An AppError as the bus RPC client rethrows it (a WireError or AppError subclass: status + message). */
export function isAppErrorLike(err: unknown): err is { status: number; message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    'status' in err &&
    typeof err.status === 'number' &&
    'message' in err &&
    typeof err.message === 'string'
  );
}
