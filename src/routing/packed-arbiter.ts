import * as z from 'zod';
import { ArbiterHeader, type RoutingArbiterModel } from './arbiter.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Whether `value` is a list of finite numbers, checked in one loop (a model has tens of thousands). */
function isNumberList(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'number' || !Number.isFinite(item)) return false;
  return true;
}

/**
 * The same check as `z.array(z.string())`, as one loop: a start reads 9,000 feature names, and
 * zod's first parse of that array was most of reading the model (45–68 ms, 12–16 once warm).
 */
function isStringList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

/**
 * The arbiter as it is saved (`agents/routing-arbiter.json`, version 2): the feature names in one
 * list and their weights in one flat list, feature by feature, one weight per agent in the order
 * of `agents`. Why not a table of feature name → weights: parsing that made a list per feature
 * (7,000 of them), and compiling it a typed array per feature; reading the model took ~14 MB of
 * resident memory and ~180 ms at start, where these two lists take ~1 MB and ~5 ms.
 */
export const PackedArbiterFile = lazySchema(() =>
  z
    .object({
      version: z.literal(2),
      ...ArbiterHeader.shape,
      /** The feature names, each once. */
      features: z.custom<string[]>(isStringList, 'must be a list of strings'),
      /** The weights of `features[i]` are `weights[i * agents.length …][agents.length]`. */
      weights: z.custom<number[]>(isNumberList, 'must be a list of finite numbers'),
    })
    .superRefine((model, context) => {
      const width = model.agents.length;
      if (model.bias.length !== width || model.weights.length !== model.features.length * width)
        context.addIssue({
          code: 'custom',
          path: ['weights'],
          message: `every feature must have one weight per agent (${width})`,
        });
      if (new Set(model.features).size !== model.features.length)
        context.addIssue({
          code: 'custom',
          path: ['features'],
          message: 'a feature is named twice',
        });
    }),
);
export type PackedArbiterFile = z.infer<typeof PackedArbiterFile>;

/** A packed arbiter in memory: its weights in one typed array, as {@link PackedArbiterFile} lays them out. */
export interface PackedArbiter extends ArbiterHeader {
  features: readonly string[];
  weights: Float64Array;
}

/**
 * A fitted model in the saved layout: the features in the table's order, their weights one after
 * another. The numbers are the same numbers (JSON writes and reads them exactly).
 *
 * @example
 * writeFileSync(file, JSON.stringify(packArbiter(fitArbiter(examples, options))) + '\n');
 */
export function packArbiter(model: RoutingArbiterModel): PackedArbiterFile {
  const { weights, ...header } = model;
  const features = Object.keys(weights);
  return {
    ...header,
    version: 2,
    features,
    weights: features.flatMap((name) => weights[name]!),
  };
}

/** A saved (or packed) model as a table of feature name → weights, as it was fitted. */
export function unpackArbiter(packed: PackedArbiter | PackedArbiterFile): RoutingArbiterModel {
  const { features, weights, ...rest } = packed;
  const header = headerOf(rest);
  const width = header.agents.length;
  const table: Record<string, number[]> = {};
  features.forEach((name, i) => {
    table[name] = Array.from(weights.slice(i * width, (i + 1) * width));
  });
  return { ...header, version: 1, weights: table };
}

/** The header of a model, without its weights or the version of a file layout. */
export function headerOf(model: ArbiterHeader & { version?: number }): ArbiterHeader {
  const { agents, defaultAgent, charGrams, ridge, fittedOn, bias } = model;
  return { agents, defaultAgent, charGrams, ridge, fittedOn, bias };
}

/** A validated file's model in memory: its weights in one typed array, which routing reads by offset. */
export function packedFromFile(file: PackedArbiterFile): PackedArbiter {
  const { features, weights } = file;
  return { ...headerOf(file), features, weights: Float64Array.from(weights) };
}

/** A table-of-weights model laid out as a packed one, for compiling it (tests, experiments). */
export function packedInMemory(model: RoutingArbiterModel): PackedArbiter {
  return packedFromFile(packArbiter(model));
}
