import { execFile } from 'node:child_process';
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { uploadObjectKey } from '@vj/contracts';
import { VideoJobs } from '@vj/sdk';
import { ObjectStorage } from '@vj/storage';
import { numberArg, runBench, stringArg, withBenchStack, type BenchStack } from '../support/bench-stack';
import { cpuSince, processCpu } from '../support/process-cpu';
import { median } from '../support/stats';

// bench/uploads (issue 41, decision 0099): one file through the whole stack as `npm start` runs it, on
// loopback to the benchmark's S3 server. The baseline, measured in the same run and interleaved with
// the others: one presigned PUT of the same bytes with `curl -T`. Then the SDK's multipart upload at
// 1, 4 and 8 parts in flight (declare, sign, PUT the parts, complete). Each way prints its MiB/s (the
// median of the runs) and its ratio to curl's, the gateway's CPU per GiB (it signs URLs and asks S3
// what it holds, it never carries a byte), and the share of the time after the last byte was
// confirmed: the complete, where the S3 server assembles the parts (s3rver copies them on this disk). The file is sparse (zeros read from no disk); each
// object is deleted once measured.
// Usage: npm run bench:uploads [-- --size-mib 3072 --runs 2 --concurrency 1,4,8]

const SIZE = numberArg('--size-mib', 3072) * 1024 ** 2;
const RUNS = numberArg('--runs', 2);
const CONCURRENCY = stringArg('--concurrency', '1,4,8').split(',').map(Number);
const GIB = 1024 ** 3;

interface Way {
  name: string;
  // The upload_id of what it stored, and when (hrtime) the last byte was confirmed, where that is
  // before the end (a multipart upload's complete comes after).
  send(bench: BenchStack, path: string): Promise<{ uploadId: string; bytesDoneAt?: bigint }>;
}

// The stack's bucket and region are the services' defaults.
const s3Storage = (env: { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }) =>
  new ObjectStorage({ endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY, bucket: 'video-jobs', region: 'us-east-1' });

// One presigned PUT, sent by curl: the upload_id of what it stored.
const curlWay: Way = {
  name: 'curl -T, one PUT',
  async send(bench, path) {
    const declared = await fetch(`${bench.stack.apiUrl}/v1/uploads`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ file_name: 'big.mp4', content_type: 'video/mp4', file_size: SIZE }) });
    const { upload_id: uploadId, upload_url: url } = (await declared.json()) as { upload_id: string; upload_url: string };
    await promisify(execFile)('curl', ['-sf', '-T', path, '-H', 'content-type: video/mp4', url]);
    return { uploadId };
  },
};

const multipartWay = (concurrency: number): Way => ({
  name: `SDK multipart, ${concurrency} in flight`,
  async send(bench, path) {
    const client = new VideoJobs({ apiKey: bench.stack.apiKey, baseUrl: bench.stack.apiUrl });
    let bytesDoneAt: bigint | undefined;
    const onProgress = (sent: number, total: number) => void (sent === total && (bytesDoneAt = process.hrtime.bigint()));
    const { upload_id: uploadId } = await client.uploads.upload(path, { fileName: 'big.mp4', contentType: 'video/mp4', multipart: true, concurrency, onProgress });
    return { uploadId, bytesDoneAt };
  },
});

async function main(): Promise<void> {
  const ways = [curlWay, ...CONCURRENCY.map(multipartWay)];
  const env = { UPLOAD_MAX_BYTES: String(SIZE), RATE_LIMIT_WRITE_BURST: '100000', RATE_LIMIT_READ_BURST: '100000' };
  await withBenchStack(env, async (bench) => {
    const path = join(bench.dir, 'big.mp4');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, SIZE);
    closeSync(fd);
    const storage = s3Storage(bench.stack.infra.env);
    const seconds = new Map<string, number[]>(ways.map((way) => [way.name, []]));
    const gatewayMs = new Map<string, number>(ways.map((way) => [way.name, 0]));
    // The share of each upload's time after its last byte was confirmed: the S3 server assembling parts.
    const assembly = new Map<string, number[]>(ways.map((way) => [way.name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const way of ways) {
        const before = processCpu();
        const started = process.hrtime.bigint();
        const { uploadId, bytesDoneAt } = await way.send(bench, path);
        const ended = process.hrtime.bigint();
        seconds.get(way.name)!.push(Number(ended - started) / 1e9);
        assembly.get(way.name)!.push(bytesDoneAt === undefined ? 0 : Number(ended - bytesDoneAt) / Number(ended - started));
        gatewayMs.set(way.name, gatewayMs.get(way.name)! + (cpuSince(before).find(([label]) => label === 'gateway')?.[1] ?? 0));
        const key = uploadObjectKey(bench.stack.accountId, uploadId);
        if ((await storage.stat(key))?.size !== SIZE) throw new Error(`${way.name}: the stored object is not ${SIZE} bytes`);
        await storage.remove(key);
      }
    }
    const baseline = median(seconds.get(curlWay.name)!);
    console.log(`\nuploads: ${(SIZE / 1024 ** 2).toFixed(0)} MiB on loopback, ${RUNS} run(s) each, interleaved; median of the runs`);
    console.log('way                            |   MiB/s | ratio to curl | gateway CPU per GiB | share after the last byte (assembly)');
    for (const way of ways) {
      const time = median(seconds.get(way.name)!);
      const cpuPerGib = gatewayMs.get(way.name)! / RUNS / (SIZE / GIB);
      console.log(`${way.name.padEnd(30)} | ${(SIZE / 1024 ** 2 / time).toFixed(0).padStart(7)} | ${(baseline / time).toFixed(2).padStart(13)} | ${cpuPerGib.toFixed(0).padStart(16)} ms | ${(100 * median(assembly.get(way.name)!)).toFixed(0).padStart(5)} %`);
    }
  });
}

runBench(main);
