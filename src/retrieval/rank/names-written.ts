import { STOPWORDS } from './stopwords.js';

/**
 * The words of a question written as names: capitalised where no sentence begins ("the weather
 * in Oslo", "pizza in New York"), lower-cased. A name the book never uses is a subject the book
 * does not cover; an everyday word it never uses is often the book's subject in other words.
 *
 * @example
 * namesWritten("What's the weather in Oslo?"); // Set { 'oslo' }
 * namesWritten('How do I fine-tune a model with LoRA?'); // Set { 'lora' }
 */
export function namesWritten(question: string): Set<string> {
  const names = new Set<string>();
  for (const match of question.matchAll(NAME)) names.add(match[0].toLowerCase());
  return names;
}

// A capitalised word not at the start of the text or of a sentence ("What", "Also" open one), or
// a word whose capitals follow a small letter anywhere ("LoRA", "PyTorch", "iPhone"): written so,
// only a name is, where "URDF" is how a book writes its own initialisms.
const NAME = /(?<![.?!:;]\s*|^\s*)\b[A-Z][a-z]+\b|\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b/g;

/**
 * The names a question writes, as runs of words: capitalised words not opening it, acronyms and
 * model numbers ("How tall is the Unitree H1?" → ["Unitree H1"]), as written. A name with dots or
 * digits is one word ("g5.2xlarge", "ros2", "A10G"), and a bare number keeps the word it numbers
 * ("week 10", "chapter 3"): a follow-up asking "and the g5.4xlarge?" or "what about week 11?"
 * replaces the whole name, where "2xlarge" or "10" alone was replaced and left "g5." or "week".
 *
 * @example
 * nameRunsWritten('How much does a g5.2xlarge cost in week 10?'); // ['g5.2xlarge', 'week 10']
 */
export function nameRunsWritten(question: string): string[] {
  return [...question.matchAll(NAME_RUN)].map((match) => {
    if (!/^\d/.test(match[0])) return match[0];
    const numbered = /\b([a-z]+)\s+$/i.exec(question.slice(0, match.index))?.[1];
    return numbered && !STOPWORDS.has(numbered.toLowerCase())
      ? `${numbered} ${match[0]}`
      : match[0];
  });
}

// Capitalised words or words holding a digit, not opening the text; dotted parts belong to the word.
const NAME_RUN =
  /(?<!^\s*)\b(?:[A-Z][\w-]*|[a-z]*\d[\w-]*)(?:\.[\w-]+)*(?:\s+(?:[A-Z][\w-]*|\d[\w-]*)(?:\.[\w-]+)*)*/g;
