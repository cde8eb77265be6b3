import pg from 'pg';

/** The PostgreSQL server the bench may use (`COHORT_BENCH_DATABASE_URL`, else the tests'). */
export const benchDatabaseUrl = (): string | undefined =>
  process.env.COHORT_BENCH_DATABASE_URL ?? process.env.COHORT_TEST_DATABASE_URL;

/**
 * Runs `run` with a connection string whose tables live in a new schema of `url`'s database,
 * dropped afterwards, so a bench run starts from an empty store and leaves nothing behind.
 *
 * @example
 * await withScratchSchema(url, 'bench', (schemaUrl) => ingestInto(schemaUrl));
 */
export async function withScratchSchema<T>(
  url: string,
  prefix: string,
  run: (schemaUrl: string) => Promise<T>,
): Promise<T> {
  const schema = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const separator = url.includes('?') ? '&' : '?';
    return await run(`${url}${separator}options=-csearch_path%3D${schema}`);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}
