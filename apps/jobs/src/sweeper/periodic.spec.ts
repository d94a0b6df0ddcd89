import { Periodic } from './periodic';

describe('Periodic', () => {
  it('hands a failed run to onFailure and runs again at the next interval', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const periodic = new Periodic(
      5,
      async () => {
        runs++;
        if (runs === 1) throw new Error('Connection terminated');
      },
      (error) => failures.push(error),
    );
    periodic.start();
    for (let waited = 0; runs < 3 && waited < 2_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    await periodic.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(failures).toEqual([new Error('Connection terminated')]);
  });
});
