import { z } from 'zod';
import {
  AppError,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GatewayTimeoutError,
  InternalError,
  isAppError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  toErrorResponse,
  UnauthorizedError,
  ValidationError,
} from '../src/index';

describe('AppError hierarchy', () => {
  test.each([
    [BadRequestError, 400, true],
    [UnauthorizedError, 401, true],
    [ForbiddenError, 403, true],
    [NotFoundError, 404, true],
    [MethodNotAllowedError, 405, true],
    [ConflictError, 409, true],
    [PayloadTooLargeError, 413, true],
    [ValidationError, 422, true],
    [InternalError, 500, false],
    [BadGatewayError, 502, true],
    [ServiceUnavailableError, 503, true],
    [GatewayTimeoutError, 504, true],
  ])('%p has status %p and expose=%p', (ErrorClass, status, expose) => {
    const err = new ErrorClass('message');
    expect(err).toBeInstanceOf(AppError);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(status);
    expect(err.expose).toBe(expose);
    expect(err.message).toBe('message');
    expect(err.name).toBe(ErrorClass.name);
    expect(isAppError(err)).toBe(true);
  });

  test('plain AppError: 5xx other than 503/504 is not exposed unless asked', () => {
    expect(new AppError(502, 'x').expose).toBe(false);
    expect(new AppError(418, 'x').expose).toBe(true);
    expect(new AppError(500, 'safe', { expose: true }).expose).toBe(true);
    expect(new AppError(400, 'secret', { expose: false }).expose).toBe(false);
  });

  test('BadGatewayError: 502, exposed (it names the failing provider), unlike a plain 502 AppError', () => {
    const err = new BadGatewayError('run 6ba7b810 failed: crt providers unavailable: crt.sh: HTTP 502');
    expect(err).toMatchObject({ status: 502, expose: true, name: 'BadGatewayError' });
    expect(new BadGatewayError()).toMatchObject({ message: 'bad gateway', expose: true });
    expect(new BadGatewayError('x', { expose: false }).expose).toBe(false);
    const cause = new Error('connect ECONNREFUSED 10.0.0.9:443');
    expect(new BadGatewayError('crt.sh unavailable', { cause }).cause).toBe(cause);
    expect(new BadGatewayError('crt.sh unavailable', { cause }).expose).toBe(true);
    expect(new AppError(502, 'x').expose).toBe(false);
  });

  test('keeps the cause for logs', () => {
    const cause = new Error('ECONNREFUSED 10.0.0.1:5432');
    expect(new ServiceUnavailableError('registry unavailable', { cause }).cause).toBe(cause);
  });

  test('refuses a status that is not an error status', () => {
    expect(() => new AppError(200, 'ok')).toThrow(RangeError);
    expect(() => new AppError(600, 'x')).toThrow(RangeError);
    expect(() => new AppError(404.5, 'x')).toThrow(RangeError);
  });

  test('isAppError rejects look-alikes', () => {
    expect(isAppError(new Error('x'))).toBe(false);
    expect(isAppError({ status: 404, message: 'x' })).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});

describe('toErrorResponse', () => {
  test('exposed AppErrors keep status and message', () => {
    expect(toErrorResponse(new ValidationError('input.apex: must be a registrable domain'))).toEqual({
      status: 422,
      body: { ok: false, error: 'input.apex: must be a registrable domain' },
    });
    expect(toErrorResponse(new ServiceUnavailableError('registry did not answer within 3000 ms'))).toEqual({
      status: 503,
      body: { ok: false, error: 'registry did not answer within 3000 ms' },
    });
  });

  test('a BadGatewayError reaches the client with its message (docs/decisions.md C8)', () => {
    const message =
      'run 6ba7b810-9dad-41d1-80b4-00c04fd430c8 failed: crt providers unavailable: crt.sh: HTTP 502; certspotter: timed out';
    expect(toErrorResponse(new BadGatewayError(message))).toEqual({
      status: 502,
      body: { ok: false, error: message },
    });
    expect(toErrorResponse(new BadGatewayError('hidden', { expose: false }))).toEqual({
      status: 502,
      body: { ok: false, error: 'internal error' },
    });
  });

  test('non-exposed AppErrors keep the status but hide the message', () => {
    expect(
      toErrorResponse(new InternalError('duplicate key value violates unique constraint "api_keys_pkey"')),
    ).toEqual({
      status: 500,
      body: { ok: false, error: 'internal error' },
    });
    expect(toErrorResponse(new AppError(502, 'upstream at 10.0.0.7 said no'))).toEqual({
      status: 502,
      body: { ok: false, error: 'internal error' },
    });
  });

  test.each([
    new Error('connect ECONNREFUSED postgres://admin:hunter2@db:5432'),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    z.string().safeParse(1).error,
    'a string',
    { status: 400, message: 'looks like an AppError but is not' },
    undefined,
  ])('anything else is a 500 "internal error" (%#)', (err) => {
    const response = toErrorResponse(err);
    expect(response).toEqual({ status: 500, body: { ok: false, error: 'internal error' } });
  });
});
