import type { QueryText } from './query-text.js';

/** Subjects a technical book never answers, whatever company or product a question names. */
export type OutsideDomain = 'market' | 'sports' | 'news';

/** What {@link outsideDomain} found: the domain and the words that show it. */
export interface OutsideSubject {
  domain: OutsideDomain;
  words: string[];
}

// Stock is the subject beside a word of trading or worth ("Should I buy Apple stock?"), not "in
// stock"; shares only beside trading ("trade Unitree shares"), since "share" is also a verb: "How do
// nodes share a value?" is not about markets.
const STOCK = new Set(['stock', 'stocks', 'equities']);
const SHARES = new Set(['shares']);
const TRADING = new Set([
  'buy',
  'buying',
  'sell',
  'selling',
  'trade',
  'trading',
  'traded',
  'invest',
  'investing',
  'investment',
  'investor',
  'investors',
  'portfolio',
  'savings',
  'money',
]);
const WORTH = new Set(['worth', 'price', 'prices', 'value', 'valuation', 'ticker']);
// Words that alone name a market: its instruments' owners and payouts, commodities by the unit.
const MARKET_WORDS = new Set([
  'shareholder',
  'shareholders',
  'stockholder',
  'stockholders',
  'dividend',
  'dividends',
  'nasdaq',
  'ipo',
  'stockmarket',
  'commodity',
  'commodities',
  'ounce',
  'ounces',
  'forex',
  'mortgage',
]);
const MARKET_PAIRS = new Set([
  'market cap',
  'stock market',
  'stock exchange',
  'share price',
  'share prices',
  'share worth',
  'shares worth',
  'stock price',
  'barrel of',
  'earnings per',
  'quarterly earnings',
]);
// Sports and news: these words are their subject unless the book itself uses them (a book on
// robot football would).
const SPORTS_WORDS = new Set([
  'football',
  'soccer',
  'basketball',
  'baseball',
  'tennis',
  'golf',
  'rugby',
  'cricket',
  'hockey',
  'nba',
  'nfl',
  'fifa',
  'olympic',
  'olympics',
  'marathon',
  'league',
  'championship',
  'championships',
  'tournament',
  'playoffs',
  'superbowl',
]);
const SPORTS_PAIRS = new Set(['world cup', 'super bowl', 'grand prix']);
const NEWS_WORDS = new Set([
  'news',
  'headline',
  'headlines',
  'election',
  'elections',
  'presidential',
]);
const NEWS_PAIRS = new Set(['weather forecast']);

const PAIR_STARTS = new Set(
  [...MARKET_PAIRS, ...SPORTS_PAIRS, ...NEWS_PAIRS].map((pair) => pair.split(' ')[0] as string),
);

// Every word that can matter to outsideDomain, alone or as the first word of a pair.
const ANY_CUE: ReadonlySet<string> = new Set([
  ...PAIR_STARTS,
  ...MARKET_WORDS,
  ...STOCK,
  ...SHARES,
  ...TRADING,
  ...WORTH,
  ...SPORTS_WORDS,
  ...NEWS_WORDS,
]);

/**
 * The domain outside any technical book a question is about: a market (share and commodity
 * prices, investing), sports or the news, with the words that show it; undefined otherwise. A
 * sports or news word (not a two-word name such as "world cup") counts only when `covered` says
 * the book does not use it.
 *
 * @example
 * outsideDomain(analyzeText("What's NVIDIA's share price?"), () => false); // { domain: 'market', words: ['share price'] }
 * outsideDomain(analyzeText('Is the Jetson Orin in stock?'), () => false); // undefined
 */
export function outsideDomain(
  text: QueryText,
  covered: (word: string, index: number) => boolean,
): OutsideSubject | undefined {
  const { words } = text;
  // Most questions have no word that matters here: they are answered before any list is made.
  let first = 0;
  while (first < words.length && !ANY_CUE.has(words[first] as string)) first += 1;
  if (first === words.length) return undefined;
  const market: string[] = [];
  const sports: string[] = [];
  const news: string[] = [];
  let stock: string | undefined;
  let shares: string | undefined;
  let trading = false;
  let worth = false;
  for (let i = first; i < words.length; i++) {
    const word = words[i] as string;
    // Most words are none of these: one lookup, then the next word.
    if (!ANY_CUE.has(word)) continue;
    // Two-word names are built only for a word that starts one (no string per word otherwise).
    const pair = PAIR_STARTS.has(word) && i + 1 < words.length ? `${word} ${words[i + 1]}` : '';
    if (MARKET_PAIRS.has(pair)) market.push(pair);
    else if (MARKET_WORDS.has(word)) market.push(word);
    const previous = words[i - 1];
    if (STOCK.has(word) && previous !== 'in' && previous !== 'of') stock ??= word;
    if (SHARES.has(word)) shares ??= word;
    if (TRADING.has(word)) trading = true;
    if (WORTH.has(word)) worth = true;
    if (SPORTS_PAIRS.has(pair)) sports.push(pair);
    else if (SPORTS_WORDS.has(word) && !covered(word, i)) sports.push(word);
    if (NEWS_PAIRS.has(pair)) news.push(pair);
    else if (NEWS_WORDS.has(word) && !covered(word, i)) news.push(word);
  }
  const instrument = (stock && (trading || worth) && stock) || (shares && trading && shares);
  if (instrument && !market.some((found) => found.includes(instrument))) market.unshift(instrument);
  if (market.length > 0) return { domain: 'market', words: market };
  if (sports.length > 0) return { domain: 'sports', words: sports };
  if (news.length > 0) return { domain: 'news', words: news };
  return undefined;
}
