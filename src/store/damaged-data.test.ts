import { describe, expect, it } from 'vitest';
import { damagedDataError } from './damaged-data.js';

describe('damagedDataError', () => {
  it('says a store error on damaged data is damaged files and what to do, and nothing else', () => {
    // An overwritten page of the messages table: the server answered 500 and the CLI
    // "unexpected error: invalid page in block 0 of relation …".
    const page = Object.assign(new Error('invalid page in block 0 of relation "base/5/16434"'), {
      code: 'XX001',
    });
    expect(damagedDataError(page)).toMatchObject({
      code: 'retrieval_unavailable',
      message:
        'The store\'s files are damaged (invalid page in block 0 of relation "base/5/16434"): restore the data folder (or the database) from a backup, or remove the folder and ingest again if it holds nothing you need.',
    });
    expect(damagedDataError(Object.assign(new Error('x'), { code: '57P01' }))).toBeUndefined();
    expect(damagedDataError(new TypeError('y'))).toBeUndefined();
    expect(damagedDataError(null)).toBeUndefined();
  });
});
