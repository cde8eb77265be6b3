import { describe, expect, it } from 'vitest';
import { createBookRegistry } from './book-registry.js';
import { createRouter } from './router.js';
import { FUZZY_WORDS_PER_QUESTION } from './word-records.js';

const router = createRouter(createBookRegistry());

// Made-up words no lexicon or English knows, each long enough to be looked up as a typo.
const letter = (n: number) => String.fromCharCode(97 + (n % 26));
const madeUp = (count: number) =>
  Array.from({ length: count }, (_, i) => `zqx${letter(i)}${letter(Math.floor(i / 26))}v`);

describe('the fuzzy lookups of one question', () => {
  const noise = madeUp(FUZZY_WORDS_PER_QUESTION).join(' ');

  it('reads a typo among the first words no lexicon knows', () => {
    const { corrections } = router.explain(`capston demo requirements ${noise}`);
    expect(corrections).toContainEqual(['capston', 'capstone']);
  });

  it('takes a word past the budget as typed: made-up text costs a bounded number of lookups', () => {
    const { corrections, result } = router.explain(`${noise} capston demo requirements`);
    expect(corrections).toEqual([]);
    expect(result.routingReason).not.toMatch(/capston"? as/);
  });

  it('reads a mistyped function word within the budget only', () => {
    expect(router.explain(`waht is a costmap ${noise}`).result.routingReason).toMatch(
      /"waht" as "what"/,
    );
    expect(router.explain(`${noise} waht is a costmap`).result.routingReason).not.toMatch(
      /"waht" as "what"/,
    );
  });
});
