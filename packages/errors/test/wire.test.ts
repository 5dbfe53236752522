import {
  AppError,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  deserializeError,
  ForbiddenError,
  GatewayTimeoutError,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  serializeError,
  UnauthorizedError,
  ValidationError,
  WireError,
} from '../src/index';

describe('serializeError / deserializeError', () => {
  test.each([
    BadRequestError,
    UnauthorizedError,
    ForbiddenError,
    NotFoundError,
    MethodNotAllowedError,
    ConflictError,
    PayloadTooLargeError,
    ValidationError,
    InternalError,
    BadGatewayError,
    ServiceUnavailableError,
    GatewayTimeoutError,
  ])('%p survives a JSON round trip as the same class', (ErrorClass) => {
    const original = new ErrorClass('remote message');
    const wire = JSON.parse(JSON.stringify(serializeError(original)));
    expect(WireError.parse(wire)).toEqual({ status: original.status, message: 'remote message' });
    const back = deserializeError(wire);
    expect(back).toBeInstanceOf(ErrorClass);
    expect(back.status).toBe(original.status);
    expect(back.message).toBe('remote message');
    expect(back.expose).toBe(original.expose);
  });

  test('a 502 from a remote service comes back as an exposed BadGatewayError', () => {
    // The orchestrator or gateway may raise it; the message names the provider and travels as is.
    const message = 'run 6ba7b810 failed: crt providers unavailable: crt.sh: HTTP 502; certspotter: HTTP 503';
    const wire = JSON.parse(JSON.stringify(serializeError(new BadGatewayError(message))));
    expect(wire).toEqual({ status: 502, message });
    const back = deserializeError(wire);
    expect(back).toBeInstanceOf(BadGatewayError);
    expect(back).toMatchObject({ status: 502, message, expose: true });
  });

  test('a status without a subclass comes back as a plain AppError', () => {
    const back = deserializeError(serializeError(new AppError(429, 'slow down')));
    expect(back.constructor).toBe(AppError);
    expect(back).toMatchObject({ status: 429, message: 'slow down', expose: true });
  });

  test('unknown errors never carry internals across the bus', () => {
    const wire = serializeError(new Error('password authentication failed for user "svc" at 10.0.0.2'));
    expect(wire).toEqual({ status: 500, message: 'internal error' });
    expect(serializeError('oops')).toEqual({ status: 500, message: 'internal error' });
  });

  test('the wire shape is exactly {status, message}', () => {
    expect(Object.keys(serializeError(new NotFoundError('x'))).sort()).toEqual(['message', 'status']);
    expect(WireError.safeParse({ status: 404, message: 'x', stack: 'at ...' }).success).toBe(false);
    expect(WireError.safeParse({ status: 200, message: 'x' }).success).toBe(false);
    expect(WireError.safeParse({ status: '404', message: 'x' }).success).toBe(false);
  });

  test('a malformed wire error becomes an InternalError', () => {
    for (const bad of [null, {}, { status: 404 }, { status: 700, message: 'x' }, 'boom']) {
      const err = deserializeError(bad);
      expect(err).toBeInstanceOf(InternalError);
      expect(err.status).toBe(500);
    }
  });
});
