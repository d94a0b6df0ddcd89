import { readFile } from 'node:fs/promises';
import { isAbsolute, dirname, resolve } from 'node:path';
import type { MattingModelSpec } from './matting-model';

// MATTING_MODELS_FILE: the extra ONNX models a deployment brings (docs/matting-models.md). Each
// key names a model ("general" serves subject_is_person: false; "person" replaces the built-in
// one); its value is one variant or a list of variants for different frame shapes.

export const MODEL_ROLES = ['person', 'general'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
export type DeclaredModels = Partial<Record<ModelRole, MattingModelSpec[]>>;

export class ModelsFileError extends Error {
  constructor(file: string, problems: string[]) {
    super(`${file}: ${problems.join('; ')}`);
    this.name = 'ModelsFileError';
  }
}

export async function readModelsFile(file: string): Promise<DeclaredModels> {
  let declared: unknown;
  try {
    declared = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ModelsFileError(file, [`not a readable JSON file (${error instanceof Error ? error.message : String(error)})`]);
  }
  return parseModels(declared, dirname(file), file);
}

// Relative model paths are read from the file's own folder.
export function parseModels(declared: unknown, baseDir: string, file = 'MATTING_MODELS_FILE'): DeclaredModels {
  const problems: string[] = [];
  const models: DeclaredModels = {};
  if (!isRecord(declared)) throw new ModelsFileError(file, ['must hold a JSON object']);
  for (const [role, value] of Object.entries(declared)) {
    if (!(MODEL_ROLES as readonly string[]).includes(role)) {
      problems.push(`unknown model "${role}" (known: ${MODEL_ROLES.join(', ')})`);
      continue;
    }
    const variants = Array.isArray(value) ? value : [value];
    if (variants.length === 0) problems.push(`${role}: no variant declared`);
    models[role as ModelRole] = variants.map((variant, i) => parseVariant(variant, `${role}${Array.isArray(value) ? `[${i}]` : ''}`, role, baseDir, problems));
  }
  if (problems.length > 0) throw new ModelsFileError(file, problems);
  return models;
}

function parseVariant(value: unknown, where: string, name: string, baseDir: string, problems: string[]): MattingModelSpec {
  const spec = isRecord(value) ? value : {};
  if (!isRecord(value)) problems.push(`${where}: must be an object`);
  const known = ['path', 'width', 'height', 'layout', 'mean', 'std', 'output'];
  for (const key of Object.keys(spec)) if (!known.includes(key)) problems.push(`${where}.${key}: unknown property`);
  const path = typeof spec.path === 'string' && spec.path !== '' ? spec.path : (problems.push(`${where}.path: a file path is required`), '');
  const size = (key: 'width' | 'height'): number => {
    const n = spec[key];
    if (typeof n === 'number' && Number.isInteger(n) && n >= 16 && n <= 2048) return n;
    problems.push(`${where}.${key}: an integer from 16 to 2048 is required`);
    return 0;
  };
  const triple = (key: 'mean' | 'std', fallback: number): [number, number, number] => {
    const v = spec[key] ?? [fallback, fallback, fallback];
    if (Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n) && (key === 'mean' || n > 0))) {
      return v as [number, number, number];
    }
    problems.push(`${where}.${key}: three ${key === 'std' ? 'positive ' : ''}numbers are required`);
    return [fallback, fallback, fallback];
  };
  const choice = <T extends string>(key: string, choices: readonly T[], fallback: T): T => {
    const v = spec[key] ?? fallback;
    if ((choices as readonly unknown[]).includes(v)) return v as T;
    problems.push(`${where}.${key}: one of ${choices.join(', ')} is required`);
    return fallback;
  };
  return {
    name,
    path: isAbsolute(path) ? path : resolve(baseDir, path),
    width: size('width'),
    height: size('height'),
    layout: choice('layout', ['nchw', 'nhwc'] as const, 'nchw'),
    mean: triple('mean', 0),
    std: triple('std', 1),
    output: choice('output', ['probability', 'logit'] as const, 'probability'),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
