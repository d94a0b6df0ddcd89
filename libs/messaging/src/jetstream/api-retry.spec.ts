import { ErrorCode, NatsError } from 'nats';
import { retryOnTimeout } from './api-retry';

const timeout = () => NatsError.errorForCode(ErrorCode.Timeout);

describe('retryOnTimeout', () => {
  it('makes a call that timed out again until it is answered', async () => {
    const call = jest.fn().mockRejectedValueOnce(timeout()).mockRejectedValueOnce(timeout()).mockResolvedValue('ok');
    await expect(retryOnTimeout(call)).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('gives up with the timeout after the last attempt', async () => {
    const call = jest.fn().mockRejectedValue(timeout());
    await expect(retryOnTimeout(call, 3)).rejects.toMatchObject({ code: ErrorCode.Timeout });
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('throws any other error at once', async () => {
    const call = jest.fn().mockRejectedValue(NatsError.errorForCode(ErrorCode.PermissionsViolation));
    await expect(retryOnTimeout(call)).rejects.toMatchObject({ code: ErrorCode.PermissionsViolation });
    expect(call).toHaveBeenCalledTimes(1);
  });
});
