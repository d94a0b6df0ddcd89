import { createDatabase } from '@vj/local-stack';
import { currentLogContext, runWithLogContext } from '@vj/observability';
import { DataSource } from 'typeorm';
import { outboxInsertSql, outboxRows } from './outbox-draft';
import { outboxEntity } from './outbox-entity';
import { OutboxRelay, type OutboxPublisher } from './outbox-relay';

const SCHEMA = 'relay_test';

describe('OutboxRelay against PostgreSQL', () => {
  let dataSource: DataSource;
  const published: string[] = [];
  const publishedIn: (string | undefined)[] = [];
  // A failed publish: true for a plain error, or the error itself.
  let fail: (subject: string) => boolean | Error = () => false;
  let gate: Promise<void> | null = null;
  const publisher: OutboxPublisher = {
    async publish(subject, _payload, { msgId }) {
      await gate;
      const failure = fail(subject);
      if (failure) throw failure instanceof Error ? failure : new Error(`cannot publish ${subject}`);
      published.push(msgId);
      publishedIn.push(currentLogContext().request_id);
    },
  };
  const relay = (options: Partial<ConstructorParameters<typeof OutboxRelay>[2]> = {}) => new OutboxRelay(dataSource, publisher, { schema: SCHEMA, pollMs: 60_000, ...options });
  const write = (...subjects: string[]) =>
    dataSource.query(outboxInsertSql(SCHEMA, 1), [JSON.stringify(outboxRows(subjects.map((subject, i) => ({ subject, msgId: `${subject}#${i}`, payload: { subject } })), new Date()))]);
  const rows = async () => (await dataSource.query(`SELECT subject, published_at IS NOT NULL AS published, failures, parked_at IS NOT NULL AS parked FROM "${SCHEMA}"."outbox" ORDER BY position`)) as {
    subject: string;
    published: boolean;
    failures: number;
    parked: boolean;
  }[];

  beforeAll(async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'outbox_relay');
    dataSource = await new DataSource({ type: 'postgres', url, schema: SCHEMA, entities: [outboxEntity(SCHEMA)], synchronize: false }).initialize();
    await dataSource.query(`CREATE SCHEMA "${SCHEMA}"`);
    // The same table the services' migrations make.
    await dataSource.driver.createSchemaBuilder().build();
  });

  afterAll(() => dataSource?.destroy());

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM "${SCHEMA}"."outbox"`);
    published.length = 0;
    publishedIn.length = 0;
    fail = () => false;
    gate = null;
  });

  it('publishes rows in the order they were written, with their msgId, and marks them published', async () => {
    await write('a', 'b', 'c');
    expect(await relay().publishBatch()).toBe(3);
    expect(published).toEqual(['a#0', 'b#1', 'c#2']);
    expect((await rows()).every((row) => row.published)).toBe(true);
  });

  it("publishes each row in its writer's request context, not in the one of the request that nudged the relay", async () => {
    await runWithLogContext({ request_id: 'req-a' }, () => write('a'));
    await runWithLogContext({ request_id: 'req-b' }, () => write('b'));
    await write('c');
    const draining = relay();
    runWithLogContext({ request_id: 'req-waker' }, () => draining.nudge());
    await draining.stop();
    expect(published).toEqual(['a#0', 'b#0', 'c#0']);
    expect(publishedIn).toEqual(['req-a', 'req-b', undefined]);
  });

  it('holds no transaction or row lock while it publishes', async () => {
    await write('a');
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const batch = relay().publishBatch();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // With the relay mid-publish, another session can lock the row at once.
    await dataSource.transaction(async (tx) => tx.query(`SELECT 1 FROM "${SCHEMA}"."outbox" FOR UPDATE NOWAIT`));
    open();
    expect(await batch).toBe(1);
  });

  it('does not publish a row another instance has claimed', async () => {
    await write('a');
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const first = relay({ claimMs: 300 }).publishBatch();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await relay().publishBatch()).toBe(0);
    open();
    expect(await first).toBe(1);
    expect(published).toEqual(['a#0']);
  });

  it('goes past a poisoned row, counting it, and parks it after maxFailures', async () => {
    await write('good1', 'poison', 'good2');
    fail = (subject) => subject === 'poison';
    const poisoned = relay({ maxFailures: 2 });
    expect(await poisoned.publishBatch()).toBe(2);
    expect(published).toEqual(['good1#0', 'good2#2']);
    await write('good3');
    await poisoned.publishBatch();
    expect((await rows()).find((row) => row.subject === 'poison')).toMatchObject({ published: false, failures: 2, parked: true });
    expect(await poisoned.publishBatch()).toBe(0);
  });

  it("does not count a row whose stream is out of reach (a timeout, no responders) while other streams' rows go out", async () => {
    await write('work', 'event1');
    const outage = (code: string) => Object.assign(new Error(`publish failed: ${code}`), { code });
    const relaying = relay({ maxFailures: 1 });
    fail = (subject) => subject === 'work' && outage('TIMEOUT');
    expect(await relaying.publishBatch()).toBe(1);
    await write('event2');
    fail = (subject) => subject === 'work' && outage('503');
    expect(await relaying.publishBatch()).toBe(1);
    expect((await rows()).find((row) => row.subject === 'work')).toMatchObject({ published: false, failures: 0, parked: false });
    fail = () => false;
    expect(await relaying.publishBatch()).toBe(1);
    expect(published).toEqual(['event1#1', 'event2#0', 'work#0']);
  });

  it('never lets poisoned rows hold back the rows behind them', async () => {
    await write('poison1', 'poison2', 'poison3', 'good');
    fail = (subject) => subject.startsWith('poison');
    const poisoned = relay({ maxFailures: 3 });
    expect(await poisoned.publishBatch()).toBe(1);
    expect(published).toEqual(['good#3']);
    expect((await rows()).filter((row) => row.subject.startsWith('poison')).map((row) => row.failures)).toEqual([1, 1, 1]);
  });

  it("sends a batch's publishes together, in order, before any is acknowledged", async () => {
    await write('a', 'b', 'c');
    const sent: string[] = [];
    let acknowledge = (): void => undefined;
    const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
    let firstSent = (): void => undefined;
    const sending = new Promise<void>((resolve) => (firstSent = resolve));
    const publish = (subject: string) => (sent.push(subject), firstSent(), acknowledged);
    const batch = new OutboxRelay(dataSource, { publish }, { schema: SCHEMA, pollMs: 60_000 }).publishBatch();
    await sending;
    expect(sent).toEqual(['a', 'b', 'c']);
    acknowledge();
    expect(await batch).toBe(3);
  });

  it('counts nothing while NATS is down (every row fails) and publishes them all once it is back', async () => {
    await write('a', 'b', 'c');
    fail = () => true;
    await expect(relay().publishBatch()).rejects.toThrow('cannot publish a');
    expect((await rows()).map((row) => row.published)).toEqual([false, false, false]);
    expect((await rows()).map((row) => row.failures)).toEqual([0, 0, 0]);
    fail = () => false;
    expect(await relay().publishBatch()).toBe(3);
  });

  it('deletes published rows once they are older than keepPublishedMs', async () => {
    await write('old', 'new');
    await relay().publishBatch();
    await dataSource.query(`UPDATE "${SCHEMA}"."outbox" SET published_at = now() - interval '2 hours' WHERE subject = 'old'`);
    expect(await relay({ keepPublishedMs: 3_600_000 }).prune()).toBe(1);
    expect((await rows()).map((row) => row.subject)).toEqual(['new']);
  });
});
