import { stopOnSignals } from './stop-signals';

describe('stopOnSignals', () => {
  const handlers = new Map<string, () => void>();
  let exit: jest.SpyInstance;

  beforeEach(() => {
    handlers.clear();
    jest.spyOn(process, 'once').mockImplementation(((signal: string, handler: () => void) => handlers.set(signal, handler)) as never);
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  });

  afterEach(() => jest.restoreAllMocks());

  const exited = () => new Promise<void>((resolve) => exit.mockImplementation((() => resolve()) as never));

  it('stops the service once, then closes the ops server and flushes traces, and exits 0', async () => {
    const order: string[] = [];
    stopOnSignals('test', {
      stop: async (signal) => void order.push(`stop ${signal}`),
      ops: { close: async () => void order.push('ops') },
      tracing: { shutdown: async () => void order.push('tracing') },
    });
    const done = exited();
    handlers.get('SIGTERM')!();
    handlers.get('SIGINT')!();
    await done;
    expect(order).toEqual(['stop SIGTERM', 'ops', 'tracing']);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('exits 1 when a step fails', async () => {
    stopOnSignals('test', { stop: () => Promise.reject(new Error('stuck')), ops: { close: async () => undefined }, tracing: { shutdown: async () => undefined } });
    const done = exited();
    handlers.get('SIGINT')!();
    await done;
    expect(exit).toHaveBeenCalledWith(1);
  });
});
