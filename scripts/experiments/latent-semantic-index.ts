/**
 * Latent semantic indexing built from the corpus itself: a truncated SVD of the term–chunk TF-IDF
 * matrix. Terms that occur in the same chunks end up close, so a question can reach a passage
 * through words it never uses ("lost" → "drift", "localization"). No weights are downloaded.
 */
import { seededRandom } from '../../src/test/seeded-random.js';

/** Latent dimensions kept; fewer on a small corpus, where rare directions are noise. */
export const DEFAULT_LSI_DIMENSIONS = 128;
/** Power iterations of the randomized SVD: two are enough for a text matrix's slow spectrum decay. */
const POWER_ITERATIONS = 1;
/** Extra random directions that make the randomized range estimate accurate. */
const OVERSAMPLING = 12;

/** Options of {@link buildLatentSemanticIndex}. */
export interface LatentSemanticIndexOptions {
  /** Latent dimensions (default {@link DEFAULT_LSI_DIMENSIONS}, at most a fifth of the chunk count). */
  dimensions?: number;
  /** Seed of the random projection, so the same corpus always gives the same index. */
  seed?: number;
}

/** One chunk's analysed terms and how often each occurs. */
export interface DocumentTerms {
  terms: readonly string[];
  counts: ArrayLike<number>;
}

/** Chunk vectors in a latent space where co-occurring terms are close. */
export interface LatentSemanticIndex {
  /** Number of latent dimensions actually kept. */
  readonly dimensions: number;
  /** Whether `term` has a latent vector (it occurs in the corpus). */
  has(term: string): boolean;
  /**
   * Cosine between the query (weighted terms, folded into the latent space) and every chunk, written
   * into `out`; returns false (and leaves `out` untouched) when no query term is known.
   */
  similarities(terms: Map<string, number>, out: Float32Array): boolean;
}

/** A sparse matrix, rows = terms, in compressed form. */
interface SparseRows {
  rows: number;
  cols: number;
  start: Int32Array;
  index: Int32Array;
  value: Float32Array;
}

/** out (cols × l) = Mᵀ · x (rows × l); dense matrices are row-major. */
function multiplyTransposed(m: SparseRows, x: Float64Array, l: number): Float64Array {
  const out = new Float64Array(m.cols * l);
  for (let r = 0; r < m.rows; r++) {
    const xr = r * l;
    for (let p = m.start[r] as number; p < (m.start[r + 1] as number); p++) {
      const oc = (m.index[p] as number) * l;
      const v = m.value[p] as number;
      for (let j = 0; j < l; j++) out[oc + j] = (out[oc + j] as number) + v * (x[xr + j] as number);
    }
  }
  return out;
}

/** out (rows × l) = M · x (cols × l). */
function multiply(m: SparseRows, x: Float64Array, l: number): Float64Array {
  const out = new Float64Array(m.rows * l);
  for (let r = 0; r < m.rows; r++) {
    const or = r * l;
    for (let p = m.start[r] as number; p < (m.start[r + 1] as number); p++) {
      const xc = (m.index[p] as number) * l;
      const v = m.value[p] as number;
      for (let j = 0; j < l; j++) out[or + j] = (out[or + j] as number) + v * (x[xc + j] as number);
    }
  }
  return out;
}

/**
 * Orthonormalises the columns of a row-major n × l matrix in place (modified Gram–Schmidt). The
 * columns are copied out to contiguous arrays first: walking a row-major column is cache-hostile.
 */
function orthonormalise(y: Float64Array, n: number, l: number) {
  const columns = Array.from({ length: l }, (_, j) => {
    const column = new Float64Array(n);
    for (let i = 0; i < n; i++) column[i] = y[i * l + j] as number;
    return column;
  });
  for (let j = 0; j < l; j++) {
    const column = columns[j] as Float64Array;
    for (let k = 0; k < j; k++) {
      const previous = columns[k] as Float64Array;
      let dot = 0;
      for (let i = 0; i < n; i++) dot += (column[i] as number) * (previous[i] as number);
      for (let i = 0; i < n; i++) column[i] = (column[i] as number) - dot * (previous[i] as number);
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += (column[i] as number) ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < n; i++) column[i] = norm > 1e-12 ? (column[i] as number) / norm : 0;
  }
  for (let j = 0; j < l; j++) {
    const column = columns[j] as Float64Array;
    for (let i = 0; i < n; i++) y[i * l + j] = column[i] as number;
  }
}

/** Eigenvectors (columns of the returned row-major l × l matrix) and eigenvalues of a symmetric matrix (cyclic Jacobi). */
function symmetricEigen(
  a: Float64Array,
  l: number,
): { vectors: Float64Array; values: Float64Array } {
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  let total = 0;
  for (let i = 0; i < l * l; i++) total += (a[i] as number) ** 2;
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++)
      for (let q = p + 1; q < l; q++) off += (a[p * l + q] as number) ** 2;
    if (off <= 1e-20 * total) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q] as number;
        if (Math.abs(apq) < 1e-15) continue;
        const theta = ((a[q * l + q] as number) - (a[p * l + p] as number)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p] as number;
          const akq = a[k * l + q] as number;
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k] as number;
          const aqk = a[q * l + k] as number;
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p] as number;
          const vkq = v[k * l + q] as number;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { vectors: v, values: Float64Array.from({ length: l }, (_, i) => a[i * l + i] as number) };
}

/**
 * Builds the latent index from each chunk's analysed term counts (the lexical index's term vectors,
 * so text is tokenized once). Weighting is log tf × idf with unit-length chunk columns. A term of a
 * single chunk is kept: it folds a query into that chunk's topic. The SVD is randomized (range finder with power
 * iterations, then an exact eigen-decomposition of the small projected matrix).
 *
 * @example
 * const lsi = buildLatentSemanticIndex(chunks.map((_, doc) => lexicalIndex.termVector(doc)));
 * const scores = new Float32Array(chunks.length);
 * lsi.similarities(new Map([['drift', 1]]), scores);
 */
export function buildLatentSemanticIndex(
  documents: readonly DocumentTerms[],
  options: LatentSemanticIndexOptions = {},
): LatentSemanticIndex {
  const docCount = documents.length;
  const df = new Map<string, number>();
  for (const { terms } of documents)
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const vocabulary = new Map<string, number>();
  const idf: number[] = [];
  for (const [term, count] of df) {
    vocabulary.set(term, idf.length);
    idf.push(Math.log(docCount / count));
  }
  const termCount = idf.length;

  // Term rows of the weighted matrix, each chunk column scaled to unit length.
  const rowLists: { doc: number; value: number }[][] = Array.from({ length: termCount }, () => []);
  documents.forEach(({ terms, counts }, doc) => {
    const tf = new Map<number, number>();
    terms.forEach((term, i) => {
      const id = vocabulary.get(term);
      if (id !== undefined) tf.set(id, (tf.get(id) ?? 0) + (counts[i] as number));
    });
    let norm = 0;
    const weights = [...tf].map(([id, count]) => {
      const w = (1 + Math.log(count)) * (idf[id] as number);
      norm += w * w;
      return [id, w] as const;
    });
    norm = Math.sqrt(norm) || 1;
    for (const [id, w] of weights)
      (rowLists[id] as { doc: number; value: number }[]).push({ doc, value: w / norm });
  });
  const start = new Int32Array(termCount + 1);
  rowLists.forEach((row, id) => (start[id + 1] = (start[id] as number) + row.length));
  const matrix: SparseRows = {
    rows: termCount,
    cols: docCount,
    start,
    index: Int32Array.from(rowLists.flatMap((row) => row.map((e) => e.doc))),
    value: Float32Array.from(rowLists.flatMap((row) => row.map((e) => e.value))),
  };

  const k = Math.max(
    1,
    Math.min(options.dimensions ?? DEFAULT_LSI_DIMENSIONS, Math.floor(docCount / 5), termCount),
  );
  const l = Math.min(k + OVERSAMPLING, docCount, termCount);
  const random = seededRandom(options.seed ?? 20240601);
  // Range finder on the chunk side: Y = (AᵀA)^q Aᵀ Ω, orthonormalised between steps for stability.
  const omega = Float64Array.from({ length: termCount * l }, () => random() * 2 - 1);
  let y = multiplyTransposed(matrix, omega, l);
  orthonormalise(y, docCount, l);
  for (let i = 0; i < POWER_ITERATIONS; i++) {
    // The term-side product is not re-orthonormalised: with few iterations the chunk side is enough.
    y = multiplyTransposed(matrix, multiply(matrix, y, l), l);
    orthonormalise(y, docCount, l);
  }
  // B = A·Q (terms × l). BᵀB = Qᵀ·(Aᵀ·B) = W Λ Wᵀ gives singular values √λ; U = B·W/√λ, V = Q·W.
  const b = multiply(matrix, y, l);
  const c = multiplyTransposed(matrix, b, l);
  const gram = new Float64Array(l * l);
  for (let doc = 0; doc < docCount; doc++) {
    const row = doc * l;
    for (let i = 0; i < l; i++) {
      const yi = y[row + i] as number;
      for (let j = i; j < l; j++)
        gram[i * l + j] = (gram[i * l + j] as number) + yi * (c[row + j] as number);
    }
  }
  for (let i = 0; i < l; i++)
    for (let j = 0; j < i; j++) gram[i * l + j] = gram[j * l + i] as number;
  const { vectors, values } = symmetricEigen(gram, l);
  const order = Array.from({ length: l }, (_, i) => i)
    .sort((i, j) => (values[j] as number) - (values[i] as number))
    .slice(0, k)
    .filter((i) => (values[i] as number) > 1e-10);
  const dims = order.length;
  const singular = order.map((i) => Math.sqrt(values[i] as number));
  // Projection l → dims that folds a vector of B-space into U's coordinates: W's columns / σ.
  const fold = new Float64Array(l * dims);
  for (let i = 0; i < l; i++)
    for (let d = 0; d < dims; d++)
      fold[i * dims + d] =
        (vectors[i * l + (order[d] as number)] as number) / ((singular[d] as number) || 1);

  // Chunk vectors Uᵀd = S·Vᵀ = (Q·W)ᵀ scaled by S, unit length so a dot product is a cosine.
  const docVectors = new Float32Array(docCount * dims);
  for (let doc = 0; doc < docCount; doc++) {
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const column = order[d] as number;
      let sum = 0;
      for (let i = 0; i < l; i++)
        sum += (y[doc * l + i] as number) * (vectors[i * l + column] as number);
      const value = sum * (singular[d] as number);
      docVectors[doc * dims + d] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++)
      docVectors[doc * dims + d] = (docVectors[doc * dims + d] as number) / norm;
  }
  const termRows = Float32Array.from(b);
  const inB = new Float64Array(l);
  const query = new Float64Array(dims);

  return {
    dimensions: dims,
    has: (term) => vocabulary.has(term),
    similarities(terms, out) {
      inB.fill(0);
      let known = false;
      for (const [term, weight] of terms) {
        const id = vocabulary.get(term);
        if (id === undefined || weight <= 0) continue;
        known = true;
        const w = weight * (idf[id] as number);
        for (let i = 0; i < l; i++)
          inB[i] = (inB[i] as number) + w * (termRows[id * l + i] as number);
      }
      if (!known) return false;
      query.fill(0);
      let norm = 0;
      for (let d = 0; d < dims; d++) {
        let sum = 0;
        for (let i = 0; i < l; i++) sum += (inB[i] as number) * (fold[i * dims + d] as number);
        query[d] = sum;
        norm += sum * sum;
      }
      norm = Math.sqrt(norm);
      if (norm === 0) return false;
      for (let doc = 0; doc < docCount; doc++) {
        let dot = 0;
        const base = doc * dims;
        for (let d = 0; d < dims; d++)
          dot += (query[d] as number) * (docVectors[base + d] as number);
        out[doc] = dot / norm;
      }
      return true;
    },
  };
}
