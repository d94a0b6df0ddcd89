import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import Ajv from 'ajv';
import { Deployment, StatefulSet, type IDeployment, type IStatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service, type IConfigMap, type IContainer, type IPodSpec, type IService, type IVolume } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { CONSUMERS, STREAMS } from '@vj/contracts';
import { NATS_USERS, natsPasswordVariable, type NatsUser } from '../scripts/nats/service-permissions';
import type { RenderWorkerConfig } from '../apps/render-worker/src/render-worker.env';
import { workConsumer } from '../apps/render-worker/src/work-consumer';
import { composeReferences, envFileVariables, fillEnvFile, interpolate, looksSecret } from '../scripts/deploy-env';
import { SERVICE_ENVS } from '../scripts/env-catalogue';
import { renderNatsConfig } from '../scripts/nats-config';

// deploy/k8s (decision 0026): the base and the example overlay rendered with `kubectl kustomize` when
// kubectl is installed, every object validated against its schema, and the rules the platform needs
// checked on what a cluster would receive. Without kubectl the base's own resource files are checked.

const root = join(__dirname, '..');
const K8S = join(root, 'deploy', 'k8s');
const BASE = join(K8S, 'base');
const OVERLAY = join(K8S, 'overlays', 'example');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const SECRET_NAME = 'video-jobs-secrets';
const SECRETS_EXAMPLE = 'deploy/k8s/overlays/example/secrets.env.example';
const K8S_NATS_CONF = 'deploy/k8s/base/nats/nats.conf';
const SERVICES = Object.keys(SERVICE_ENVS);
// JetStreamConsumers.close waits this long for running handlers (libs/messaging/src/jetstream/jetstream-consumers.ts),
// then NATS is drained: a pod must be given more than that before SIGKILL.
const HANDLER_CLOSE_TIMEOUT_S = 30;
const SHUTDOWN_MARGIN_S = 15;
// Where a service deliberately differs from docker-compose.yml: the worker's scratch folder is its volume.
const COMPOSE_DIFFERENCES: Record<string, string[]> = { 'render-worker': ['WORK_DIR'] };

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: unknown;
  data?: Record<string, string>;
}

interface KustomizeGenerator {
  name: string;
  behavior?: string;
  literals?: string[];
  files?: string[];
  envs?: string[];
}

interface Kustomization {
  namespace?: string;
  resources?: string[];
  configMapGenerator?: KustomizeGenerator[];
  secretGenerator?: KustomizeGenerator[];
}

interface ScaledObject extends K8sObject {
  spec: {
    scaleTargetRef: { name: string; kind?: string; apiVersion?: string };
    minReplicaCount?: number;
    maxReplicaCount?: number;
    fallback?: { failureThreshold: number; replicas: number };
    advanced?: { horizontalPodAutoscalerConfig?: { behavior?: Record<string, unknown> } };
    triggers: Array<{ type: string; metadata: Record<string, string> }>;
  };
}

// ---------------------------------------------------------------------------------------------------
// Rendering

function findKubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const yamlDocuments = (text: string): K8sObject[] =>
  parseAllDocuments(text)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);

function kustomize(dir: string): K8sObject[] {
  return yamlDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

const kustomization = (dir: string) => parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;

// Without kubectl: the base's resource files as written, its namespace applied and its ConfigMap
// generators built from their literals and files (names without kustomize's hash suffix, which the
// references then match as written).
function baseAsWritten(): K8sObject[] {
  const config = kustomization(BASE);
  const objects = (config.resources ?? []).flatMap((file) => yamlDocuments(readFileSync(join(BASE, file), 'utf8')));
  for (const generator of config.configMapGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const literal of generator.literals ?? []) data[literal.slice(0, literal.indexOf('='))] = literal.slice(literal.indexOf('=') + 1);
    for (const file of generator.files ?? []) data[posix.basename(file)] = readFileSync(join(BASE, file), 'utf8');
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data });
  }
  const clusterScoped = ['Namespace'];
  return objects.map((object) => (clusterScoped.includes(object.kind) ? object : { ...object, metadata: { ...object.metadata, namespace: config.namespace } }));
}

// The example overlay reads secrets.env, which is never in the repository: render a copy of deploy/k8s
// with secrets.env made from secrets.env.example, each value fresh and random.
function renderOverlay(): { objects: K8sObject[]; secrets: Map<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'vj-k8s-'));
  try {
    cpSync(K8S, join(dir, 'k8s'), { recursive: true, filter: (source) => !source.endsWith(`${posix.sep}secrets.env`) });
    const filled = fillEnvFile(read(SECRETS_EXAMPLE));
    writeFileSync(join(dir, 'k8s', 'overlays', 'example', 'secrets.env'), filled);
    return { objects: kustomize(join(dir, 'k8s', 'overlays', 'example')), secrets: envFileVariables(filled) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kubectl = findKubectl();
if (!kubectl) {
  console.warn('k8s-manifests: kubectl not found, so `kubectl kustomize` is not run and the example overlay is not checked; the base is checked as written.');
}
const exampleSecrets = envFileVariables(fillEnvFile(read(SECRETS_EXAMPLE)));
const overlay = kubectl ? renderOverlay() : undefined;
const builds: Array<[string, K8sObject[], Map<string, string>]> = [
  ['base', kubectl ? kustomize(BASE) : baseAsWritten(), exampleSecrets],
  ...(overlay ? [['overlay example', overlay.objects, overlay.secrets] as [string, K8sObject[], Map<string, string>]] : []),
];

// ---------------------------------------------------------------------------------------------------
// Schemas: the Kubernetes API's (kubernetes-models) and a small one of our own for KEDA's CRD

const ajv = new Ajv({ allErrors: true, strict: true });
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const validateScaledObject = ajv.compile({
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  properties: {
    apiVersion: { const: 'keda.sh/v1alpha1' },
    kind: { const: 'ScaledObject' },
    metadata: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 }, namespace: { type: 'string' }, labels: stringMap, annotations: stringMap },
    },
    spec: {
      type: 'object',
      required: ['scaleTargetRef', 'triggers'],
      additionalProperties: false,
      properties: {
        scaleTargetRef: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' }, envSourceContainerName: { type: 'string' } },
        },
        pollingInterval: { type: 'integer', minimum: 1 },
        cooldownPeriod: { type: 'integer', minimum: 0 },
        initialCooldownPeriod: { type: 'integer', minimum: 0 },
        idleReplicaCount: { type: 'integer', minimum: 0 },
        minReplicaCount: { type: 'integer', minimum: 0 },
        maxReplicaCount: { type: 'integer', minimum: 1 },
        fallback: {
          type: 'object',
          required: ['failureThreshold', 'replicas'],
          additionalProperties: false,
          properties: { failureThreshold: { type: 'integer', minimum: 1 }, replicas: { type: 'integer', minimum: 0 } },
        },
        advanced: {
          type: 'object',
          additionalProperties: false,
          properties: {
            restoreToOriginalReplicaCount: { type: 'boolean' },
            horizontalPodAutoscalerConfig: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, behavior: { type: 'object' } } },
          },
        },
        triggers: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['type', 'metadata'],
            additionalProperties: false,
            properties: {
              type: { type: 'string' },
              name: { type: 'string' },
              metricType: { enum: ['AverageValue', 'Value', 'Utilization'] },
              useCachedMetrics: { type: 'boolean' },
              // KEDA reads trigger metadata as map[string]string: a YAML number is refused by the CRD.
              metadata: stringMap,
              authenticationRef: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, kind: { type: 'string' } } },
            },
            // The nats-jetstream scaler's parameters (https://keda.sh/docs/latest/scalers/nats-jetstream/).
            if: { type: 'object', properties: { type: { const: 'nats-jetstream' } } },
            then: {
              type: 'object',
              properties: {
                metadata: {
                  type: 'object',
                  required: ['natsServerMonitoringEndpoint', 'account', 'stream', 'consumer', 'lagThreshold'],
                  additionalProperties: false,
                  properties: {
                    natsServerMonitoringEndpoint: { type: 'string', pattern: '^[a-z0-9.-]+:[0-9]+$' },
                    account: { type: 'string', minLength: 1 },
                    stream: { type: 'string', minLength: 1 },
                    consumer: { type: 'string', minLength: 1 },
                    lagThreshold: { type: 'string', pattern: '^[1-9][0-9]*$' },
                    activationLagThreshold: { type: 'string', pattern: '^[0-9]+$' },
                    useHttps: { enum: ['true', 'false'] },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

// Throws with the schema's messages when an object is not valid.
function validateObject(object: K8sObject): void {
  const data = object as never;
  switch (`${object.apiVersion}/${object.kind}`) {
    case 'apps/v1/Deployment':
      return new Deployment(data).validate();
    case 'apps/v1/StatefulSet':
      return new StatefulSet(data).validate();
    case 'v1/Service':
      return new Service(data).validate();
    case 'v1/ConfigMap':
      return new ConfigMap(data).validate();
    case 'v1/Secret':
      return new Secret(data).validate();
    case 'v1/Namespace':
      return new Namespace(data).validate();
    case 'policy/v1/PodDisruptionBudget':
      return new PodDisruptionBudget(data).validate();
    case 'networking.k8s.io/v1/NetworkPolicy':
      return new NetworkPolicy(data).validate();
    case 'keda.sh/v1alpha1/ScaledObject': {
      if (!validateScaledObject(object)) throw new Error(ajv.errorsText(validateScaledObject.errors));
      // The HPA behaviour KEDA passes on is the autoscaling/v2 type: validate it as one.
      const behavior = (object as ScaledObject).spec.advanced?.horizontalPodAutoscalerConfig?.behavior;
      if (behavior) new HorizontalPodAutoscaler({ metadata: { name: 'behavior' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 1, behavior } }).validate();
      return;
    }
    default:
      throw new Error(`no schema for ${object.apiVersion} ${object.kind}: add one to this test`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Reading what a pod would get

const ofKind = <T>(objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind) as unknown as T[];
const named = <T extends { metadata?: { name?: string } }>(items: T[], name: string) => items.find((item) => item.metadata?.name === name);

function workload(
  objects: K8sObject[],
  name: string,
): { pod: IPodSpec; labels: Record<string, string>; annotations: Record<string, string>; container: IContainer; deployment?: IDeployment } {
  const deployment = named(ofKind<IDeployment>(objects, 'Deployment'), name);
  const statefulSet = named(ofKind<IStatefulSet>(objects, 'StatefulSet'), name);
  const template = (deployment ?? statefulSet)?.spec?.template;
  if (!template?.spec) throw new Error(`no Deployment or StatefulSet ${name}`);
  expect(template.spec.containers).toHaveLength(1);
  return { pod: template.spec, labels: template.metadata?.labels ?? {}, annotations: template.metadata?.annotations ?? {}, container: template.spec.containers[0], deployment };
}

interface ResolvedEnv {
  values: Record<string, string>;
  // Variables whose value comes from a Secret, directly or through $(NAME).
  fromSecret: Set<string>;
  secretKeys: string[];
  literals: Set<string>;
}

// The container's environment as the kubelet builds it: ConfigMap and Secret keys looked up, then
// $(NAME) replaced by the value of a variable defined before it ($$ escapes a $).
function resolveEnv(objects: K8sObject[], container: IContainer, secrets: Map<string, string>): ResolvedEnv {
  const values: Record<string, string> = {};
  const fromSecret = new Set<string>();
  const literals = new Set<string>();
  const secretKeys: string[] = [];
  const configMaps = ofKind<IConfigMap>(objects, 'ConfigMap');
  const secretObjects = ofKind<K8sObject>(objects, 'Secret');
  expect(container.envFrom).toBeUndefined();
  for (const variable of container.env ?? []) {
    const { name, value, valueFrom } = variable;
    if (valueFrom?.secretKeyRef) {
      const { name: secretName, key } = valueFrom.secretKeyRef;
      const generated = secretObjects.find((secret) => secret.metadata.name === secretName);
      // The base references the Secret an operator creates; a build that generates it references that one.
      if (generated) expect(Object.keys(generated.data ?? {})).toContain(key);
      else expect(secretName).toBe(SECRET_NAME);
      const secretValue = secrets.get(key);
      if (secretValue === undefined) throw new Error(`${container.name}: ${name} names ${key}, which ${SECRETS_EXAMPLE} does not list`);
      values[name] = secretValue;
      fromSecret.add(name);
      secretKeys.push(key);
    } else if (valueFrom?.configMapKeyRef) {
      const { name: configName, key } = valueFrom.configMapKeyRef;
      const data = named(configMaps, configName ?? '')?.data;
      if (data?.[key] === undefined) throw new Error(`${container.name}: ${name} names ConfigMap ${configName} key ${key}, which is not there`);
      values[name] = data[key];
    } else if (valueFrom?.fieldRef) {
      // The pod's own fields (its name, for NATS's server name).
      values[name] = `<${valueFrom.fieldRef.fieldPath}>`;
    } else if (valueFrom) {
      throw new Error(`${container.name}: ${name} uses a source this test does not read`);
    } else {
      let secretDerived = false;
      values[name] = (value ?? '').replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, reference?: string) => {
        if (whole === '$$') return '$';
        if (reference === undefined || !(reference in values)) return whole;
        if (fromSecret.has(reference)) secretDerived = true;
        return values[reference];
      });
      if (secretDerived) fromSecret.add(name);
      else literals.add(name);
    }
  }
  return { values, fromSecret, secretKeys, literals };
}

const QUANTITY_UNITS: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
function quantity(value: string | number | undefined): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(value ?? '');
  if (!match) throw new Error(`not a quantity: ${value}`);
  return Number(match[1]) * QUANTITY_UNITS[match[2] ?? ''];
}

const volumeAt = (pod: IPodSpec, container: IContainer, path: string): IVolume | undefined => {
  const mount = container.volumeMounts?.find((item) => item.mountPath === path);
  return mount && pod.volumes?.find((volume) => volume.name === mount.name);
};

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  Object.keys(selector ?? {}).length > 0 && Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);

// docker-compose.yml's view of each service, interpolated with the same secret values.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { command?: string[]; environment?: Record<string, string> }> };
function composeEnvironment(service: string, secrets: Map<string, string>): Record<string, string> {
  const env = Object.fromEntries(secrets);
  return Object.fromEntries(Object.entries(compose.services[service]?.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), env).value]));
}
const composeSecretVariables = (service: string) =>
  [...new Set(Object.values(compose.services[service]?.environment ?? {}).flatMap((value) => composeReferences(String(value)).map((ref) => ref.name)))].filter(looksSecret).sort();

const natsConfigText = renderNatsConfig();
const workerNatsUser = (service: string) => service as NatsUser;
// A service's PostgreSQL role (deploy/postgres/10-service-roles.sh): its name without hyphens.
const postgresRole = (service: string) => service.replace(/-/g, '_');

// ---------------------------------------------------------------------------------------------------

describe.each(builds)('deploy/k8s %s', (_build, objects, secrets) => {
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  const scaledObjects = ofKind<ScaledObject>(objects, 'ScaledObject');
  const services = ofKind<IService>(objects, 'Service');
  const pdbs = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
  const workerTarget = scaledObjects[0]?.spec.scaleTargetRef.name;
  const workerEnv = () => resolveEnv(objects, workload(objects, 'render-worker').container, secrets).values;
  const workerConfig = () => SERVICE_ENVS['render-worker'].parse(workerEnv()) as RenderWorkerConfig;

  it('validates every object against its schema (Kubernetes API; KEDA ScaledObject)', () => {
    const invalid = objects.flatMap((object) => {
      try {
        validateObject(object);
        return [];
      } catch (error) {
        return [`${object.kind}/${object.metadata?.name}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
    // Namespaced objects all land in the one namespace.
    expect(new Set(objects.filter((object) => object.kind !== 'Namespace').map((object) => object.metadata.namespace))).toEqual(new Set(['video-jobs']));
  });

  it('has one Deployment per service, running the command docker-compose.yml runs, all from one image', () => {
    expect(deployments.map((deployment) => deployment.metadata?.name).sort()).toEqual([...SERVICES].sort());
    for (const service of SERVICES) expect({ service, command: workload(objects, service).container.command }).toEqual({ service, command: compose.services[service].command });
    expect(new Set(SERVICES.map((service) => workload(objects, service).container.image)).size).toBe(1);
  });

  it.each(SERVICES)('%s: readiness and liveness probes, requests and limits, time to hand its work back', (service) => {
    const { pod, container } = workload(objects, service);
    expect(container.readinessProbe).toBeDefined();
    expect(container.livenessProbe).toBeDefined();
    for (const kind of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) expect({ kind, resource, value: container.resources?.[kind]?.[resource] }).toEqual({ kind, resource, value: expect.anything() });
    }
    for (const resource of ['cpu', 'memory']) expect(quantity(container.resources?.limits?.[resource])).toBeGreaterThanOrEqual(quantity(container.resources?.requests?.[resource]));
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(HANDLER_CLOSE_TIMEOUT_S + SHUTDOWN_MARGIN_S);
  });

  it.each([...SERVICES, 'nats'])('%s: runs as a non-root user with a read-only root filesystem and no privileges', (name) => {
    const { pod, container } = workload(objects, name);
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext?.capabilities?.drop).toEqual(['ALL']);
    expect(container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser).not.toBe(0);
    // swc's transform cache (scripts/run-ts.cjs) is written under /tmp.
    if (name !== 'nats') expect(volumeAt(pod, container, '/tmp')?.emptyDir?.sizeLimit).toBeDefined();
  });

  it.each(SERVICES)('%s: has a PodDisruptionBudget that lets a node drain', (service) => {
    const { labels, deployment } = workload(objects, service);
    const budgets = pdbs.filter((pdb) => selects(pdb.spec?.selector?.matchLabels, labels));
    expect(budgets).toHaveLength(1);
    const spec = budgets[0].spec ?? {};
    if (deployment?.metadata?.name === workerTarget) {
      // KEDA may leave a single worker: only maxUnavailable lets it go.
      expect(quantity(spec.maxUnavailable)).toBeGreaterThanOrEqual(1);
    } else {
      expect(quantity(spec.minAvailable)).toBeLessThan(deployment?.spec?.replicas ?? 1);
    }
  });

  it.each(SERVICES)('%s: gets every variable it requires, valid, with docker-compose.yml\'s values and credentials', (service) => {
    const { container } = workload(objects, service);
    const env = resolveEnv(objects, container, secrets);
    const definition = SERVICE_ENVS[service];
    expect(definition.required().filter((name) => env.values[name] === undefined)).toEqual([]);
    expect(() => definition.parse(env.values)).not.toThrow();
    expect(Object.values(env.values).filter((value) => /\$\(/.test(value))).toEqual([]);
    // Nothing the service does not read, except the parts its URLs are assembled from.
    const assembled = (name: string) => (container.env ?? []).some((variable) => variable.value?.includes(`$(${name})`));
    expect(Object.keys(env.values).filter((name) => !(name in definition.variables) && !assembled(name))).toEqual([]);
    // A secret variable comes from the Secret, never from a value written here.
    const secretVariables = Object.entries(definition.variables).filter(([, spec]) => spec.secret).map(([name]) => name);
    expect(secretVariables.filter((name) => name in env.values && !env.fromSecret.has(name))).toEqual([]);
    expect([...env.literals].filter((name) => looksSecret(name) && !env.fromSecret.has(name))).toEqual([]);
    // The same NATS user, PostgreSQL role and MinIO user as docker-compose.yml: the same Secret keys.
    expect([...new Set(env.secretKeys)].sort()).toEqual(composeSecretVariables(service));
    const url = (name: string) => new URL(env.values[name]);
    expect({ user: url('NATS_URL').username, password: url('NATS_URL').password }).toEqual({ user: service, password: secrets.get(natsPasswordVariable(workerNatsUser(service))) });
    if ('DATABASE_URL' in env.values) {
      const role = postgresRole(service);
      expect({ user: url('DATABASE_URL').username, password: url('DATABASE_URL').password }).toEqual({ user: role, password: secrets.get(`POSTGRES_${role.toUpperCase()}_PASSWORD`) });
    }
    if (_build === 'base') {
      // The base's defaults are compose's host names: every variable compose sets is set alike.
      const expected = composeEnvironment(service, secrets);
      const differences = COMPOSE_DIFFERENCES[service] ?? [];
      const mismatched = Object.keys(expected).filter((name) => !differences.includes(name) && env.values[name] !== expected[name]);
      expect(mismatched).toEqual([]);
    }
  });

  it('gives the render workers a sized scratch volume and model cache, and leaves their count to KEDA', () => {
    const { pod, container, deployment } = workload(objects, 'render-worker');
    const config = workerConfig();
    const work = volumeAt(pod, container, config.WORK_DIR);
    const models = volumeAt(pod, container, config.MATTING_MODEL_CACHE_DIR);
    const claimed = work?.ephemeral?.volumeClaimTemplate?.spec?.resources?.requests?.storage;
    expect(claimed).toBeDefined();
    expect(models?.emptyDir?.sizeLimit).toBeDefined();
    // Each running job holds its input and an output about as large (clean audio copies the picture).
    expect(quantity(claimed)).toBeGreaterThanOrEqual(config.WORKER_CONCURRENCY * 2 * Math.max(config.TRANSLOAD_MAX_BYTES, config.UPLOAD_INPUT_MAX_BYTES));
    const volumes = (pod.volumes ?? []).map((volume) => quantity(volume.emptyDir?.sizeLimit ?? 0)).reduce((sum, size) => sum + size, 0);
    expect(quantity(container.resources?.limits?.['ephemeral-storage'])).toBeGreaterThanOrEqual(volumes);
    expect(deployment?.spec?.replicas).toBeUndefined();
  });

  it('scales the render workers from 0 on the pending messages of their JetStream consumer', () => {
    expect(scaledObjects).toHaveLength(1);
    const { spec } = scaledObjects[0];
    expect(named(deployments, spec.scaleTargetRef.name)?.spec?.template?.spec?.containers[0].command).toEqual(compose.services['render-worker'].command);
    expect(spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
    expect(spec.minReplicaCount).toBe(0);
    expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.fallback?.replicas ?? 0).toBeLessThanOrEqual(spec.maxReplicaCount ?? 100);
    expect(spec.triggers).toHaveLength(1);
    const [{ type, metadata }] = spec.triggers;
    expect(type).toBe('nats-jetstream');
    // The stream and durable consumer the workers pull from, as the catalogue names them.
    const consumer = workConsumer(workerConfig());
    expect({ stream: metadata.stream, consumer: metadata.consumer }).toEqual({ stream: STREAMS.work, consumer: CONSUMERS.renderWorker });
    expect({ stream: metadata.stream, consumer: metadata.consumer }).toEqual({ stream: consumer.stream, consumer: consumer.durable });
    // nats.conf declares users and no accounts: the streams live in the global account $G.
    expect(natsConfigText).not.toMatch(/^\s*accounts\s*[:{]/m);
    expect(metadata.account).toBe('$G');
    // One worker per WORKER_CONCURRENCY jobs queued or running.
    expect(Number(metadata.lagThreshold)).toBe(workerConfig().WORKER_CONCURRENCY);
  });

  it('points KEDA at the monitoring port of the NATS Service, by a name that resolves from its namespace', () => {
    const [host, port] = scaledObjects[0].spec.triggers[0].metadata.natsServerMonitoringEndpoint.split(':');
    const natsLabels = workload(objects, 'nats').labels;
    const service = services.find((item) => `${item.metadata?.name}.${item.metadata?.namespace}.svc.cluster.local` === host);
    expect(service).toBeDefined();
    expect(selects(service?.spec?.selector, natsLabels)).toBe(true);
    const monitor = service?.spec?.ports?.find((item) => item.port === Number(port));
    expect(monitor?.targetPort).toBe('monitor');
    const args = workload(objects, 'nats').container.args ?? [];
    expect(workload(objects, 'nats').container.ports?.find((item) => item.name === 'monitor')?.containerPort).toBe(Number(args[args.indexOf('-m') + 1]));
  });

  it('runs NATS as docker-compose.yml does: a JetStream cluster of as many nodes, the generated nats.conf, every password from the Secret', () => {
    const statefulSet = named(ofKind<IStatefulSet>(objects, 'StatefulSet'), 'nats');
    const { pod, container, labels } = workload(objects, 'nats');
    const args = container.args ?? [];
    const arg = (flag: string) => args[args.indexOf(flag) + 1];
    // The generated configuration, mounted from its ConfigMap.
    const configVolume = volumeAt(pod, container, posix.dirname(arg('--config')));
    const configMap = named(ofKind<IConfigMap>(objects, 'ConfigMap'), configVolume?.configMap?.name ?? '');
    expect(configMap?.data?.[posix.basename(arg('--config'))]).toBe(natsConfigText);
    expect(natsConfigText).toMatch(/^jetstream \{\n {2}max_file_store: \d+\n\}$/m);
    // Each node's JetStream store on its own persistent volume.
    const storeMount = container.volumeMounts?.find((mount) => mount.mountPath === arg('--store_dir'));
    expect(statefulSet?.spec?.volumeClaimTemplates?.map((claim) => claim.metadata?.name)).toContain(storeMount?.name);
    // As many nodes as compose runs, the same flags, each node routed to every one by its stable name.
    const composeNodes = Object.keys(compose.services).filter((name) => /^nats-\d+$/.test(name));
    expect(statefulSet?.spec?.replicas).toBe(composeNodes.length);
    const composeArgs = compose.services[composeNodes[0]].command ?? [];
    const flags = (list: string[]) => list.filter((item) => item.startsWith('-'));
    expect(flags(args)).toEqual(flags(composeArgs));
    const perNode = ['--server_name', '--routes'];
    for (const flag of flags(composeArgs).filter((item) => !perNode.includes(item))) expect({ flag, value: arg(flag) }).toEqual({ flag, value: composeArgs[composeArgs.indexOf(flag) + 1] });
    const env = resolveEnv(objects, container, secrets);
    expect(arg('--server_name')).toBe('$(POD_NAME)');
    expect(env.values.POD_NAME).toBe('<metadata.name>');
    const headless = named(services, statefulSet?.spec?.serviceName ?? '');
    expect(headless?.spec?.clusterIP).toBe('None');
    expect(headless?.spec?.publishNotReadyAddresses).toBe(true);
    const routePort = container.ports?.find((item) => item.containerPort === Number(new URL(arg('--cluster')).port))?.name;
    const headlessRoutePort = headless?.spec?.ports?.find((item) => item.targetPort === routePort)?.port;
    const nodes = Array.from({ length: statefulSet?.spec?.replicas ?? 0 }, (_, i) => `nats://${statefulSet?.metadata?.name}-${i}.${headless?.metadata?.name}:${headlessRoutePort}`);
    expect(arg('--routes').split(',')).toEqual(nodes);
    expect(statefulSet?.spec?.podManagementPolicy).toBe('Parallel');
    // A drain takes at most one node: the other two keep R3 streams writable.
    const budgets = pdbs.filter((pdb) => selects(pdb.spec?.selector?.matchLabels, labels));
    expect(budgets.map((pdb) => pdb.spec?.maxUnavailable)).toEqual([1]);
    for (const user of NATS_USERS) {
      expect(env.fromSecret.has(natsPasswordVariable(user))).toBe(true);
      expect(env.values[natsPasswordVariable(user)]).toBe(secrets.get(natsPasswordVariable(user)));
    }
  });

  it('points every service at the port the NATS Service listens on', () => {
    const client = named(services, 'nats')?.spec?.ports?.find((item) => item.name === 'client')?.port;
    for (const service of SERVICES) expect(resolveEnv(objects, workload(objects, service).container, secrets).values.NATS_ADDRESS).toBe(`nats:${client}`);
  });

  it.each(SERVICES)('%s: probes /livez and /readyz, and Prometheus scrapes /metrics, on its METRICS_PORT, never the API port', (service) => {
    const { annotations, container } = workload(objects, service);
    const metricsPort = Number(resolveEnv(objects, container, secrets).values.METRICS_PORT);
    expect(container.ports?.find((item) => item.name === 'ops')?.containerPort).toBe(metricsPort);
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });
    expect(container.startupProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });
    // Not the gateway's /healthz: it fails while the workers are scaled to zero (decision 0026).
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'ops' });
    expect(annotations).toEqual(expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(metricsPort), 'prometheus.io/path': '/metrics' }));
  });

  it('opens NATS to the services, its routes to its own nodes and its monitoring port to KEDA only', () => {
    const [policy] = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
    const natsLabels = workload(objects, 'nats').labels;
    expect(selects(policy.spec?.podSelector?.matchLabels, natsLabels)).toBe(true);
    const rule = (port: string) => (policy.spec?.ingress ?? []).filter((item) => item.ports?.some((entry) => entry.port === port));
    expect((policy.spec?.ingress ?? []).map((item) => item.ports?.map((entry) => entry.port))).toEqual([['client'], ['cluster'], ['monitor']]);
    expect(rule('client')[0].from?.[0].podSelector?.matchExpressions?.[0]).toEqual({ key: 'app.kubernetes.io/name', operator: 'In', values: SERVICES });
    for (const service of SERVICES) expect(workload(objects, service).labels['app.kubernetes.io/name']).toBe(service);
    expect(selects(rule('cluster')[0].from?.[0].podSelector?.matchLabels, natsLabels)).toBe(true);
    expect(rule('monitor')[0].from?.[0].namespaceSelector?.matchLabels).toBeDefined();
  });

  it('runs the Dockerfile\'s user, from a Node 24 LTS image', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:24-bookworm-slim( AS \w+)?$/m);
    expect(dockerfile).not.toMatch(/node:20|node20/);
    const user = /^USER (\d+)(?::(\d+))?$/m.exec(dockerfile);
    expect(user).not.toBeNull();
    for (const service of SERVICES) expect(workload(objects, service).pod.securityContext?.runAsUser).toBe(Number(user?.[1]));
  });
});

describe('deploy/k8s secrets', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });

  it('keeps no Secret and no secret value in the repository', () => {
    const yamlFiles = files(K8S).filter((path) => /\.ya?ml$/.test(path));
    expect(yamlFiles.flatMap((path) => yamlDocuments(readFileSync(path, 'utf8'))).filter((object) => object.kind === 'Secret')).toEqual([]);
    // Generated only from files git ignores, never from literals written here.
    for (const dir of [BASE, OVERLAY]) {
      for (const generator of kustomization(dir).secretGenerator ?? []) {
        expect(generator.literals).toBeUndefined();
        for (const file of [...(generator.envs ?? []), ...(generator.files ?? [])]) {
          const path = relative(root, join(dir, file));
          expect({ path, ignored: gitIgnores(path) }).toEqual({ path, ignored: true });
        }
      }
    }
    // The template names each key with no value.
    expect([...envFileVariables(read(SECRETS_EXAMPLE))].filter(([, value]) => value !== '')).toEqual([]);
  });

  it('lists in secrets.env.example exactly the keys the pods use, named as in .env.example', () => {
    const objects = builds[0][1];
    const used = new Set(
      [...SERVICES, 'nats'].flatMap((name) => (workload(objects, name).container.env ?? []).flatMap((variable) => (variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef.key] : []))),
    );
    expect([...envFileVariables(read(SECRETS_EXAMPLE)).keys()].sort()).toEqual([...used].sort());
    const composeSecrets = [...envFileVariables(read('.env.example')).keys()];
    expect([...used].filter((key) => !composeSecrets.includes(key))).toEqual([]);
    // What is left out are the administrators' accounts: compose gives them only to postgres, minio and minio-init.
    const adminOnly = composeSecrets.filter((key) => !used.has(key));
    const holders = Object.keys(compose.services).filter((service) => adminOnly.some((key) => composeSecretVariables(service).includes(key)));
    expect(holders.sort()).toEqual(['minio', 'minio-init', 'postgres']);
  });

  it(`keeps ${K8S_NATS_CONF} identical to the rendered nats.conf (else run: node scripts/run-ts.cjs scripts/render-k8s-nats-config.ts)`, () => {
    expect(read(K8S_NATS_CONF)).toBe(natsConfigText);
  });
});

(kubectl ? describe : describe.skip)('deploy/k8s overlays/example (needs kubectl)', () => {
  const objects = overlay?.objects ?? [];

  it('generates the one Secret from secrets.env, and every reference uses its generated name', () => {
    const secretObjects = objects.filter((object) => object.kind === 'Secret');
    expect(secretObjects).toHaveLength(1);
    const [secret] = secretObjects;
    expect(secret.metadata.name).toMatch(new RegExp(`^${SECRET_NAME}-[a-z0-9]+$`));
    expect(Object.keys(secret.data ?? {}).sort()).toEqual([...envFileVariables(read(SECRETS_EXAMPLE)).keys()].sort());
    for (const [key, value] of Object.entries(secret.data ?? {})) expect(Buffer.from(value, 'base64').toString('utf8')).toBe(overlay?.secrets.get(key));
    const references = JSON.stringify(objects).match(/"secretKeyRef":\{[^}]*\}/g) ?? [];
    expect(references.filter((reference) => !reference.includes(`"name":"${secret.metadata.name}"`))).toEqual([]);
  });

  it('runs a pinned image from a registry, in a namespace that enforces the restricted Pod Security Standard', () => {
    const images = [...SERVICES, 'nats'].map((name) => workload(objects, name).container.image ?? '');
    for (const image of images) expect(image).toMatch(/(:[\w.-]+|@sha256:[0-9a-f]{64})$/);
    expect(images.filter((image) => image.endsWith(':latest'))).toEqual([]);
    const namespace = ofKind<K8sObject>(objects, 'Namespace');
    expect(namespace.map((item) => item.metadata.name)).toEqual(['video-jobs']);
    expect(namespace[0].metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('points the services at managed PostgreSQL and S3 endpoints instead of compose\'s host names', () => {
    const env = resolveEnv(objects, workload(objects, 'gateway').container, overlay?.secrets ?? new Map());
    expect(new URL(env.values.DATABASE_URL).hostname).not.toBe('postgres');
    expect(new URL(env.values.S3_ENDPOINT).hostname).not.toBe('minio');
    expect(new URL(env.values.S3_PUBLIC_ENDPOINT).hostname).not.toBe('localhost');
  });
});

// Whether git ignores a path (the repository's .gitignore files); without git, a rule in the
// .gitignore next to the file stands in.
function gitIgnores(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: root, stdio: 'ignore' });
    return true;
  } catch (error) {
    if ((error as { status?: number }).status === 1) return false;
    const local = join(root, posix.dirname(path), '.gitignore');
    return existsSync(local) && readFileSync(local, 'utf8').split('\n').includes(posix.basename(path));
  }
}
