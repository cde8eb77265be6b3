import { describe, expect, it } from 'vitest';
import { AgentRegistry, createExtractiveRunner, createRagSkill } from '../agents/index.js';
import { createRetrieverFromChunks, prepareDocument } from '../retrieval/index.js';
import type { RouteResult } from '../schema/index.js';
import { createStore, openPgliteDb } from '../store/index.js';
import { testAgent } from '../test/test-agent.js';
import { createBookRegistry } from '../routing/index.js';
import { bookNames, inBookNames } from './book-names.js';
import { createAssistant, createContextSkill } from './index.js';

// A course on beekeeping (new wording): its project is the "apiary plan", which students call
// their "term project"; one passage says "final projection", which shares the alias's stems.
const course = prepareDocument(
  'course.md',
  [
    '# Beekeeping Course',
    '## Apiary Plan',
    'The apiary plan must place four hives out of the wind, each with a water source within 50 metres.',
    '## Swarm Projection',
    'A final projection of the term: swarms peak in late spring, and the project of each colony is to split.',
  ].join('\n\n'),
).chunks;
const planner = testAgent('apiary_plan', {
  domain: 'apiary plan',
  aliases: ['term project', 'end-of-course project'],
});
const names = bookNames([planner]);

describe('bookNames and inBookNames', () => {
  it('maps each alias onto its agent domain, as whole words in any case and hyphenation', async () => {
    expect(names.map(({ alias, name }) => [alias, name])).toEqual([
      ['term project', 'apiary plan'],
      ['end of course project', 'apiary plan'],
    ]);
    const never = async () => false;
    expect(await inBookNames('Where do hives go in the Term Project?', names, never)).toEqual({
      text: 'Where do hives go in the apiary plan?',
      read: [['term project', 'apiary plan']],
    });
    expect((await inBookNames('the end-of-course project', names, never)).text).toBe(
      'the apiary plan',
    );
    // Inside a longer word it is not the alias.
    expect((await inBookNames('a midterm projection', names, never)).read).toEqual([]);
  });

  it('refuses an alias that is not plain words, naming the field', () => {
    expect(() => testAgent('apiary_plan', { aliases: ['term (project)'] })).toThrow(/aliases/);
    expect(() => testAgent('apiary_plan', { aliases: ['.*'] })).toThrow(/letters and digits/);
  });

  it('leaves an alias the book writes itself', async () => {
    const written = await inBookNames('What is the term project?', names, async () => true);
    expect(written).toEqual({ text: 'What is the term project?', read: [] });
  });
});

describe('an answer reads an agent alias the book never writes in the book name', () => {
  it('quotes the section of the subject, not one sharing the alias words', async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    const registry = new AgentRegistry([planner, testAgent('book', { fallback: true })]);
    const route: RouteResult = {
      primaryAgent: 'apiary_plan',
      secondaryAgents: [],
      confidence: 0.9,
      routingReason: 'keyword "term project"',
      isMultiDomain: false,
      phase: 'keyword',
      scores: {},
    };
    const assistant = createAssistant({
      registry,
      router: { route: () => route },
      rag: createRagSkill(createRetrieverFromChunks(course)),
      context: createContextSkill(store.sessions),
      runner: createExtractiveRunner(),
    });
    const reply = await assistant.ask({ query: 'What must the term project have?' });
    expect(reply.citations[0]?.section).toContain('Apiary Plan');
    expect(reply.answer).toContain('four hives');
    await store.close();
  });
});

describe("the shipped agents' names", () => {
  it('read the capstone project, as students call it, as the book\'s "capstone"', async () => {
    // "Is there a capstone project?" quoted "Projection Methods: Projecting tasks…" (the book never
    // writes "capstone project", and "project" shares the stem of "projection").
    const shipped = bookNames(createBookRegistry().all());
    const never = async () => false;
    expect((await inBookNames('Is there a capstone project?', shipped, never)).text).toBe(
      'Is there a capstone?',
    );
    expect((await inBookNames('When is our final project due?', shipped, never)).text).toBe(
      'When is our capstone due?',
    );
  });
});
