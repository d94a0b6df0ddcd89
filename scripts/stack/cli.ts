import { loadStackEnv } from './stack-env-file';
import { DEFAULT_DATA_DIR } from './stack';

// `npm run cli`: the gateway's operator CLI, pointed at the database and NATS of the stack `npm start`
// runs unless DATABASE_URL or NATS_URL say otherwise.
loadStackEnv(process.env.DATA_DIR ?? DEFAULT_DATA_DIR, process.env);
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../../apps/gateway/src/cli/main');
