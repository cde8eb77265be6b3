import type { Agent } from '../define-agent.js';
import type { AgentDependencies } from '../dependencies.js';
import { answerMessages, socialReplies } from '../messages.js';
import type { AgentEvent, AgentRunner } from './runner.js';
import { isCohortError } from '../../errors/index.js';
import {
  analyze,
  askingAboutTheWork,
  asksWhomTheWorkThanks,
  creditReadAsThanks,
  headingPathOf,
  isAcknowledgments,
  isFrontMatter,
  measuresAsked,
  measureTerms,
  namesWritten,
  QUERY_STOPWORDS,
  socialMessage,
  THANKS_TERMS,
  theClassAsTheWork,
  withoutCoverageAsk,
  withoutWorkNamedAfterThis,
  workQuestionTerms,
} from '../../retrieval/index.js';
import type { AgentContext, OffTopicSubject, RetrievedChunk } from '../../schema/index.js';
import { formatCitations, formatSourcesFooter } from '../../citations/index.js';
import { coverageAsked, mentionedInPassing } from './coverage-asked.js';
import { modelNamesWritten, namesModel } from './model-names.js';
import { cachedPassageSentences } from './passage-sentences.js';
import { selectSentences } from './select-sentences.js';

/** An answer with no sources: the retrieval failed or found nothing relevant. */
function* uncited(
  agent: Agent,
  response: string,
  metadata: Record<string, unknown>,
): Generator<AgentEvent> {
  yield { type: 'delta', text: response };
  yield {
    type: 'response',
    response: {
      response,
      sources: [],
      agentName: agent.name,
      confidence: 0,
      metadata: { mode: 'extractive', ...metadata },
    },
  };
}

/** The answer to a question whose subject the router found outside the book. */
function notCovered(
  agent: Agent,
  messages: ReturnType<typeof answerMessages>,
  uncovered: string[],
  retrieved: number,
): Generator<AgentEvent> {
  return uncited(agent, `${messages.notCovered(uncovered)}\n\n${messages.extractiveNotice}`, {
    retrieved,
    uncovered,
  });
}

/**
 * True when the quoted sentences name the question's subject: a word of it, and every name the
 * book does not cover ("What's the weather in Oslo?" is not answered by the book's sentences on
 * simulated weather, which name "weather" but not Oslo). Everyday words the router found
 * uncovered are often the book's subject put in other words, so one subject word is enough for
 * them.
 */
function namesSubject(
  offTopic: OffTopicSubject,
  question: string,
  picked: ReadonlyArray<{ text: string }>,
  terms: (text: string) => string[],
): boolean {
  const quoted = new Set(picked.flatMap((sentence) => terms(sentence.text)));
  const named = (word: string) => terms(word).some((term) => quoted.has(term));
  const names = namesWritten(question);
  // The router reads "Germany's" as "germanys", the name as written is "Germany".
  const isName = (word: string) => names.has(word) || names.has(word.replace(/s$/, ''));
  if (offTopic.uncovered.some((word) => isName(word) && !named(word))) return false;
  return offTopic.subject.some(named);
}

/** True when `chunk` (its headings or text) holds every word of `phrase`, as `terms` reads them. */
function namesWhole(
  phrase: string,
  chunk: RetrievedChunk,
  terms: (text: string) => string[],
): boolean {
  const wanted = terms(phrase);
  const held = new Set(terms(`${chunk.section ?? ''}\n${chunk.text}`));
  return wanted.every((term) => held.has(term));
}

/**
 * Best relevance under which an answer says its passages match only loosely: on the tune sets'
 * 532 questions, 12 of the 52 answers whose best quoted passage scored under 0.25 cited a gold
 * section, against 415 of the 480 at or above it.
 */
export const WEAK_MATCH = 0.25;

/** Options of the extractive runner. */
export interface ExtractiveRunnerOptions {
  /** Most sentences quoted in one answer. */
  maxSentences?: number;
  terms?: (text: string) => string[];
}

/**
 * The runner used when no model is configured: it retrieves the agent's domain passages, quotes
 * the sentences that best answer the question (definitions for the glossary agent, specification
 * lines for hardware), cites each `[n]`, appends the Sources footer and says it ran extractively.
 *
 * @example
 * const runner = createExtractiveRunner();
 * const response = await finalResponse(runner.run(agent, context, dependencies));
 */
/**
 * Headings that name an aspect of what their parent heading names, not a thing of their own:
 * "Specifications Overview", "Technical Capabilities", "Key Features".
 */
const ASPECT_HEADING =
  /^(?:(?:key|main|technical|core|research|general|basic|hardware|software|system|performance)\s+)*(?:specifications?|specs|overview|capabilities|features|applications|components|requirements|characteristics|properties|considerations|advantages|limitations|use cases|details)(?:\s+(?:overview|summary))?$/i;

/**
 * The lead line of list items quoted without their own introduction: their heading, which often
 * holds the answer itself ("Mid-term Evaluation (Week 6-7)", "Week 10: NVIDIA Isaac Platform -
 * Navigation"); a bare "- Comprehensive understanding of ROS 2" says neither when nor of what.
 * A heading that names only an aspect ({@link ASPECT_HEADING}) is led by its parent: "- Weight:
 * Around 40-45 kg" under "Specifications Overview" does not say which robot weighs that;
 * "Unitree H1 Humanoid Robot › Specifications Overview:" does.
 */
function listLabel(chunk: RetrievedChunk | undefined): string | undefined {
  const headings = (chunk?.section ?? '').split(' > ');
  const own = headings.at(-1)?.trim() ?? '';
  const parent = headings.at(-2)?.trim();
  if (!own) return undefined;
  if (parent && ASPECT_HEADING.test(own)) return `${parent} › ${own}:`;
  return own.endsWith(':') ? own : `${own}:`;
}

/**
 * A quoted line as a sentence: a period added where the book wrote none ("…" after a trailing
 * comma), except after a line of code ("t.x = atof(argv[2]);", "colcon build --symlink-install"), where it would break a copy.
 */
export function endSentence(text: string): string {
  if (/[.!?:]$/.test(text) || looksLikeCode(text)) return text;
  // A sentence the book continues past what is quoted (into a code block it does not quote)
  // ends "…", not ",.": "… as a Python launch file,".
  if (/[,;]$/.test(text)) return `${text.slice(0, -1)} …`;
  return `${text}.`;
}

/**
 * True for a line that reads as code rather than words: it ends as a statement or block does
 * (";", "{", "}", "\\"), or is a shell command line (a "$ " prompt, or a lowercase program name
 * followed by options: "colcon build --symlink-install", "ros2 pkg create … --dependencies rclpy").
 */
export function looksLikeCode(text: string): boolean {
  return (
    /[;{}\\]$/.test(text) ||
    /^\$ /.test(text) ||
    /^[a-z][\w.-]*(?: [\w./<>{}:=~-]+)* --?[a-z][\w-]*(?:[ =][^\s]+)*(?: [^\s]+)*$/.test(text)
  );
}

/** A code block as Markdown writes it, its lines as the book has them. */
function fencedCode(code: string): string {
  return `\`\`\`\n${code}\n\`\`\``;
}

export function createExtractiveRunner(options: ExtractiveRunnerOptions = {}): AgentRunner {
  // The same analyzer as the index, so a sentence matches the question the way its chunk did.
  const terms = options.terms ?? ((text: string) => analyze(text));
  // The runner's passages' sentences and terms, kept across questions (see cachedPassageSentences).
  const sentences = cachedPassageSentences(terms);
  const maxSentences = options.maxSentences ?? 5;
  return {
    mode: 'extractive',
    async *run(
      agent: Agent,
      context: AgentContext,
      deps: AgentDependencies,
    ): AsyncIterable<AgentEvent> {
      // "hello", "thanks!", "who are you?": nothing to look up, and no quote answers them.
      // The work as it names itself ("The documentation does not cover …"), once an index was
      // built; "book" before.
      const work = () => deps.rag.workName?.();
      const social = socialMessage(context.query);
      if (social !== undefined) {
        const course = deps.rag.workIsCourse?.() ?? true;
        yield* uncited(agent, socialReplies(work(), course)[social], { social });
        return;
      }
      const domain = context.domainFilter ?? agent.retrievalDomain;
      // A follow-up is answered about the subject it takes from the earlier turns.
      const asked = context.standaloneQuery ?? context.query;
      const query = context.selectedText ? `${asked} ${context.selectedText}` : asked;
      let chunks: RetrievedChunk[];
      try {
        chunks = await deps.rag.retrieve(query, {
          domain,
          limit: deps.limit,
          signal: deps.signal,
          span: deps.span,
        });
      } catch (error) {
        if (!isCohortError(error, 'retrieval_unavailable')) throw error;
        deps.logger.error('retrieval_unavailable', { agent: agent.name, cause: error.message });
        yield* uncited(agent, answerMessages(work()).retrievalUnavailable, {
          error: 'retrieval_unavailable',
        });
        return;
      }
      yield { type: 'retrieval', query, chunks };
      const messages = answerMessages(work());
      // The router is certain (a market, sports, names no dictionary knows): no passage answers,
      // whatever words it shares ("the football world cup in 1998" and the book's 1998 reference).
      if (context.offTopic?.certain) {
        yield* notCovered(agent, messages, context.offTopic.uncovered, chunks.length);
        return;
      }
      const found = chunks.filter((chunk) => chunk.score >= deps.minScore);
      // A question only about the work ("How long is the class?", "What does this book cover?")
      // is answered by its opening page when that was found: the passages after it were found
      // for its other words ("Class Prediction: …", "Long-term autonomy capabilities").
      // Over a course, "the class" is the work, as the ranker reads it.
      const opening = found.filter((chunk) => isFrontMatter(chunk.source));
      const aboutTheWork = askingAboutTheWork(
        deps.rag.workIsCourse?.() === true ? theClassAsTheWork(asked) : asked,
      );
      const relevant = opening.length > 0 && aboutTheWork === 'only' ? opening : found;
      // "Which people does the book credit?" asks the thanks, not the licence's "credit", when
      // the work has thanks to quote; the ROS 2 docs' "Credit is given to the authors of …" is
      // theirs.
      const thanks = relevant.some((chunk) =>
        isAcknowledgments({ headingPath: headingPathOf(chunk) }),
      );
      // A long section's next part, for a list that runs on into it (see `continuations`).
      const passages = [...relevant];
      const continuations = new Map<number, number>();
      relevant.forEach((chunk, i) => {
        const next = deps.rag.nextPart?.(chunk);
        if (!next) return;
        const held = passages.findIndex((passage) => passage.id === next.id);
        if (held >= 0) continuations.set(i, held);
        // Not retrieved itself: it gives no sentence of its own (see `continuations`).
        else
          continuations.set(
            i,
            passages.push({ ...next, metadata: { ...next.metadata, nextPartOnly: true } }) - 1,
          );
      });
      const picked = relevant.length
        ? selectSentences(asked, passages, {
            terms,
            sentences,
            // A question about the work asks in the words its opening page answers in ("What
            // does this book cover?": "This guide covers…"), which other questions only ask with.
            queryTerms: (asked) => {
              const text = thanks ? creditReadAsThanks(asked) : asked;
              return [
                ...(askingAboutTheWork(text)
                  ? workQuestionTerms(text)
                  : analyze(withoutCoverageAsk(withoutWorkNamedAfterThis(text)), QUERY_STOPWORDS)),
                // "How tall is …": the book writes the measure as a noun ("Height: …").
                ...measureTerms(text),
                // "Who are the authors grateful to?": the book says "We acknowledge …".
                ...(asksWhomTheWorkThanks(text) ? THANKS_TERMS : []),
              ];
            },
            style: agent.answerStyle,
            max: maxSentences,
            requireSubject: context.offTopic !== undefined,
            continuations,
          })
        : [];
      // Nothing names the subject the router found outside the book: say which words.
      if (picked.length === 0 && context.offTopic) {
        yield* notCovered(agent, messages, context.offTopic.uncovered, chunks.length);
        return;
      }
      if (picked.length === 0) {
        yield* uncited(agent, `${messages.nothingRelevant}\n\n${messages.extractiveNotice}`, {
          retrieved: chunks.length,
        });
        return;
      }
      // Off-topic: passages that share only the question's form ("price" in "the price of gold")
      // are not an answer unless a quoted sentence names a word of the question's subject.
      if (context.offTopic && !namesSubject(context.offTopic, asked, picked, terms)) {
        yield* notCovered(agent, messages, context.offTopic.uncovered, chunks.length);
        return;
      }
      // Cite only the chunks actually quoted, numbered in order of first use.
      const used = [...new Set(picked.map((s) => s.chunk))];
      const number = new Map(used.map((chunk, i) => [chunk, i + 1]));
      const citations = formatCitations(used.map((i) => passages[i] as RetrievedChunk));
      // Prose sentences of one chunk form a paragraph; list items stay list lines.
      const blocks: string[] = [];
      let previous: (typeof picked)[number] | undefined;
      for (const sentence of picked) {
        const text = endSentence(sentence.text);
        const cited = `${text} [${number.get(sentence.chunk)}]`;
        const continues =
          previous?.code === undefined &&
          previous !== undefined &&
          (previous.chunk === sentence.chunk ||
            continuations.get(previous.chunk) === sentence.chunk) &&
          previous.listItem === sentence.listItem;
        // A block quote ("> \"Physical AI …\" by …") opens a paragraph of its own.
        if (sentence.listItem) {
          // Items quoted without the sentence that introduces them say under which heading they
          // stand: "- Weight: Around 40-45 kg" alone does not say which robot weighs that.
          // Items of a section's next part go on with its list.
          const introduced =
            previous !== undefined &&
            (previous.chunk === sentence.chunk ||
              continuations.get(previous.chunk) === sentence.chunk);
          const label = introduced ? undefined : listLabel(passages[sentence.chunk]);
          blocks.push(`${continues ? '' : '\n'}${label ? `${label}\n` : ''}- ${cited}`);
        } else if (continues && !sentence.text.startsWith('>'))
          blocks[blocks.length - 1] += ` ${cited}`;
        else blocks.push(`\n${cited}`);
        // The command or snippet the sentence introduces, as code: copied, it runs as written.
        if (sentence.code !== undefined) {
          const label = sentence.codeLabel === undefined ? '' : `${sentence.codeLabel}:\n`;
          blocks.push(`\n${label}${fencedCode(sentence.code)}`);
        }
        previous = sentence;
      }
      const lines = [blocks.join('\n').trim()];
      const fellBack = relevant.some((chunk) => chunk.metadata.domainFallback === true);
      // "How heavy is the Unitree G1?" where no quoted line gives a weight: say so first, rather
      // than let the nearest lines pass for the answer.
      const measures = measuresAsked(asked);
      // Each quoted line analysed once, and only when a measure was asked.
      const quoted = new Set(measures.length > 0 ? picked.flatMap((s) => terms(s.text)) : []);
      const unstated = measures
        .filter(
          (measure) =>
            !measure.terms.some((term) => quoted.has(term)) &&
            !picked.some((sentence) => measure.value.test(sentence.text)),
        )
        .map((measure) => measure.name);
      // "What is the price of the Unitree G1?" answered by lines on platform costs in general: when
      // the question names a model and no quoted passage (headings or text) names it, say so first.
      // Not the document's title: "Robot Lab Options (Unitree Go2/G1/H1 comparison)" names all.
      const written = modelNamesWritten(asked);
      const models = [...written.keys()];
      const quotedChunks = used.map((i) => passages[i] as RetrievedChunk);
      const unnamed =
        models.length > 0 &&
        !quotedChunks.some((chunk) =>
          models.some((model) => namesModel(`${chunk.section ?? ''}\n${chunk.text}`, model)),
        );
      // A whole-book fallback stays in the metadata, not the text: "Nothing in the glossary part of
      // the book matched" named a part no book has, before answers that were right.
      // "What keeps a two-legged robot from tipping over?" answered from QoS's "Keep last": a best
      // relevance this low is shown as such rather than like a confident answer.
      const best = Math.max(0, ...quotedChunks.map((chunk) => chunk.score));
      const weak = best < WEAK_MATCH;
      // "Does the guide cover engine repair?" answered from "physics engine" and "plan repair":
      // when no quoted passage names the whole thing asked about, say so first.
      const coverage = coverageAsked(asked);
      const partly =
        coverage !== undefined && !quotedChunks.some((chunk) => namesWhole(coverage, chunk, terms));
      // "Does this class cover cooking?" answered from the one bullet that names cooking: say that
      // the work only mentions it, rather than let the bullet pass for a lesson on it.
      const passing =
        coverage !== undefined &&
        !partly &&
        mentionedInPassing(coverage, relevant, terms, sentences);
      const preface = unnamed
        ? `${messages.modelNotNamed([...written.values()])}\n\n`
        : unstated.length > 0
          ? `${messages.measureNotStated(unstated)}\n\n`
          : partly
            ? `${messages.noPassageOn(coverage)}\n\n`
            : passing
              ? `${messages.onlyInPassing(coverage)}\n\n`
              : weak
                ? `${messages.weakMatch(best)}\n\n`
                : '';
      const body = `${preface}${lines.join('\n\n')}`;
      const response = `${body}${formatSourcesFooter(citations)}\n\n${messages.extractiveNotice}`;
      yield { type: 'delta', text: response };
      const top = relevant[0]?.score ?? 0;
      yield {
        type: 'response',
        response: {
          response,
          sources: citations,
          agentName: agent.name,
          confidence: Math.round(top * 1000) / 1000,
          metadata: {
            mode: 'extractive',
            body,
            retrieved: chunks.length,
            domainFallback: fellBack,
            weakMatch: weak,
          },
        },
      };
    },
  };
}
