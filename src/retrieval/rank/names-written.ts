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
 * model numbers ("How tall is the Unitree H1?" → ["Unitree H1"]), as written.
 */
export function nameRunsWritten(question: string): string[] {
  return [...question.matchAll(NAME_RUN)].map((match) => match[0]);
}

const NAME_RUN = /(?<!^\s*)\b(?:[A-Z][\w-]*|[a-z]*\d[\w-]*)(?:\s+(?:[A-Z][\w-]*|\d[\w-]*))*/g;
