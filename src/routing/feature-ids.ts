/**
 * Small integer ids for classifier feature keys ("w:topic", "b:what topic"), shared by every
 * classifier of the process: a query's features are found in a classifier's table by id (an
 * array read) instead of by string (a hash-map lookup), and a query's repeated features are
 * merged in a reused array instead of a fresh `Map` per clause.
 */

/** Query keys given an id at most; later new keys go without one (odd input cannot grow it). */
export const QUERY_FEATURE_ID_LIMIT = 50_000;

const ids = new Map<string, number>();
// The key of each id (ids count up from 0).
const names: string[] = [];

const give = (key: string): number => {
  const id = names.length;
  ids.set(key, id);
  names.push(key);
  return id;
};

/**
 * The id of a feature a classifier was trained on: always given, since a classifier's keys are
 * bounded by its training data.
 *
 * @example
 * const id = trainedFeatureId('w:topic');
 */
export function trainedFeatureId(key: string): number {
  return ids.get(key) ?? give(key);
}

/**
 * The id of a query's feature key, or -1 when it has none and the limit is reached: such a key
 * was never trained on (every trained key has an id), so no classifier knows it.
 *
 * @example
 * queryFeatureId('w:topic'); // the same id as trainedFeatureId('w:topic')
 */
export function queryFeatureId(key: string): number {
  const id = ids.get(key);
  if (id !== undefined) return id;
  return names.length >= QUERY_FEATURE_ID_LIMIT ? -1 : give(key);
}

/**
 * A query's weighted features in the order they were first added, each key once with its
 * weights summed: what `Map<string, number>` holds after the same `add` calls, to the bit (the
 * same additions in the same order), without a map. `ids[i]` is -1 for a key without an id
 * (`keys[i]` then says which).
 */
export interface FeatureList {
  readonly count: number;
  /** The first `count` entries are the list's (the arrays may be longer). */
  readonly ids: ArrayLike<number>;
  readonly values: ArrayLike<number>;
  readonly keys: readonly (string | undefined)[];
}

/**
 * The keys of a list, in its order.
 *
 * @example
 * featureKeys(model.analyze('What is a topic?').features); // ['w:what', 'b:^ what', ...]
 */
export function featureKeys(list: FeatureList): string[] {
  const keys: string[] = [];
  for (let i = 0; i < list.count; i += 1) {
    const id = list.ids[i] as number;
    keys.push(id >= 0 ? (names[id] as string) : (list.keys[i] as string));
  }
  return keys;
}

/**
 * A reusable builder of {@link FeatureList}s. `start` empties it (the previous list is then
 * gone: read a list before starting the next).
 */
export class FeatureListBuilder {
  count = 0;
  ids = new Int32Array(64);
  values = new Float64Array(64);
  keys: Array<string | undefined> = [];
  // slot[id] - 1 is the id's position in this list when stamp[id] is the current list's stamp.
  private slot = new Int32Array(1024);
  private stamp = new Uint32Array(1024);
  private current = 0;
  private unnamed: Map<string, number> | undefined;

  start(): this {
    this.count = 0;
    // Keys are written only for features without an id, which most lists have none of: the
    // length is set (a call into the engine) only when the last list wrote some.
    if (this.keys.length !== 0) this.keys.length = 0;
    this.unnamed = undefined;
    this.current += 1;
    if (this.current === 0xffffffff) {
      this.stamp.fill(0);
      this.current = 1;
    }
    return this;
  }

  /** Adds `value` to the key's weight (`id` from {@link queryFeatureId}); values ≤ 0 are ignored. */
  add(id: number, key: string, value: number): void {
    if (!(value > 0)) return;
    let at: number | undefined;
    if (id >= 0) {
      if (id >= this.slot.length) this.growSlots(id);
      if (this.stamp[id] === this.current) at = (this.slot[id] as number) - 1;
    } else {
      at = this.unnamed?.get(key);
    }
    if (at !== undefined) {
      this.values[at] = (this.values[at] as number) + value;
      return;
    }
    at = this.count;
    if (at === this.ids.length) this.growList();
    this.count += 1;
    this.ids[at] = id;
    // Map's `(features.get(key) ?? 0) + value`: 0 + value, the same number.
    this.values[at] = 0 + value;
    if (id >= 0) {
      this.stamp[id] = this.current;
      this.slot[id] = at + 1;
    } else {
      this.keys[at] = key;
      (this.unnamed ??= new Map()).set(key, at);
    }
  }

  /**
   * The list as it is now, read in place until the next {@link FeatureListBuilder.start}: the
   * classifier reads a query's list right after it is made, and a copy per clause of every
   * question was a tenth of routing's garbage.
   */
  view(): FeatureList {
    return this;
  }

  private growSlots(id: number): void {
    const size = Math.max(id + 1, this.slot.length * 2);
    const slot = new Int32Array(size);
    slot.set(this.slot);
    const stamp = new Uint32Array(size);
    stamp.set(this.stamp);
    this.slot = slot;
    this.stamp = stamp;
  }

  private growList(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    const values = new Float64Array(this.values.length * 2);
    values.set(this.values);
    this.ids = ids;
    this.values = values;
  }
}
