import { join, relative, resolve, sep } from 'node:path';
import { registerJobType } from '@vj/contracts';
import { COPY_VIDEO_TYPE } from './copy-video.definition';

// Loaded before a service's own modules (NODE_OPTIONS --require, thirdJobTypeEnv) and first by the
// test file, so each process's registry holds the test-only type before anything is built from it:
// the contracts' definition everywhere, and the gateway's and the worker's parts in those services.
registerJobType(COPY_VIDEO_TYPE);

// Each part is loaded only in the service that uses it: the gateway's brings Nest and Swagger, and
// every process of the stack (the worker's denoisers too) loads this file.
/* eslint-disable @typescript-eslint/no-require-imports */
const app = relative(join(__dirname, '..', '..', '..', 'apps'), resolve(process.argv[2] ?? '')).split(sep)[0];
if (app === 'gateway') {
  const { registerGatewayJobType } = require('../../../apps/gateway/src/jobs/types/gateway-job-types') as typeof import('../../../apps/gateway/src/jobs/types/gateway-job-types');
  const { COPY_VIDEO_GATEWAY } = require('./copy-video.gateway') as typeof import('./copy-video.gateway');
  registerGatewayJobType(COPY_VIDEO_GATEWAY);
}
if (app === 'render-worker') {
  const { registerJobProcessor } = require('../../../apps/render-worker/src/processing/job-processors') as typeof import('../../../apps/render-worker/src/processing/job-processors');
  const { copyVideoProcessor } = require('./copy-video.processor') as typeof import('./copy-video.processor');
  registerJobProcessor(COPY_VIDEO_TYPE.type, copyVideoProcessor);
}
/* eslint-enable @typescript-eslint/no-require-imports */

// The services' environment that loads this file first in each of them.
export function thirdJobTypeEnv(): NodeJS.ProcessEnv {
  const project = join(__dirname, '..', '..', '..', 'tsconfig.base.json');
  return { SWC_NODE_PROJECT: project, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require @swc-node/register --require ${__filename}`.trim() };
}
