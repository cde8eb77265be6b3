import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import type { RouteResult } from '../schema/index.js';
import {
  arbiterFeatures,
  arbiterFits,
  arbiterProbabilities,
  arbitrate,
  evidenceFeatures,
  type ArbiterEvidence,
  type RoutingArbiterModel,
} from './arbiter.js';
import { createBookRegistry } from './book-registry.js';
import { compileArbiter, type CompiledArbiter } from './compiled-arbiter.js';
import { fitArbiter } from './fit-arbiter.js';
import { headerOf, packArbiter, unpackArbiter } from './packed-arbiter.js';
import { textWords } from './query-text.js';
import { createRouter } from './router.js';
import { readArbiter, ROUTING_ARBITER, ROUTING_ARBITER_FILE } from './routing-arbiter.js';
import { sampleBookRouter } from '../test/sample-book-router.js';

const AGENTS = ['book', 'capstone', 'glossary', 'hardware', 'module_info'];

const decision = (overrides: Partial<RouteResult> = {}): RouteResult => ({
  primaryAgent: 'module_info',
  secondaryAgents: [],
  confidence: 0.9,
  routingReason: 'Intent phase: "explanation" question.',
  isMultiDomain: false,
  phase: 'intent',
  scores: { module_info: 0.9, book: 0.1 },
  intent: 'explanation',
  ...overrides,
});

/** A model that knows one thing: "derailleur" is the fallback's. */
const derailleurModel = (): RoutingArbiterModel => ({
  version: 1,
  agents: AGENTS,
  defaultAgent: 'book',
  charGrams: false,
  ridge: 1,
  fittedOn: 3,
  bias: [0, 0, 0, 0, 0],
  weights: { 'w=derailleur': [5, 0, 0, 0, 0] },
});

describe('arbiterFeatures', () => {
  it("reads the rule decision and the question's stems, pairs and opening", () => {
    const names = arbiterFeatures('How do bike gears shift?', decision(), false).map(([n]) => n);
    expect(names).toEqual(
      expect.arrayContaining([
        'r=module_info',
        'p=intent',
        'rp=module_info|intent',
        'i=explanation',
        'c=module_info',
        's=intent|module_info',
        'w=gear',
        'b=bike_gear',
        'f=how',
        'f2=how_do',
      ]),
    );
    expect(names.some((n) => n.startsWith('g='))).toBe(false);
    expect(names).not.toContain('off');
  });

  it('adds character n-grams only when the model uses them, and flags an off-topic subject', () => {
    const features = arbiterFeatures(
      'gears',
      decision({ offTopic: { subject: ['gears'], uncovered: ['gears'] } }),
      true,
    );
    const names = features.map(([n]) => n);
    expect(names).toEqual(expect.arrayContaining(['off', 'g=<ge', 'g=ars>', 'g=gear']));
  });
});

describe('arbitrate', () => {
  it('overrides the rules when the model says so, and says what the rules had decided', () => {
    const result = decision({ secondaryAgents: ['hardware'], isMultiDomain: true });
    arbitrate(compileArbiter(derailleurModel()), 'How does a bicycle derailleur work?', result);
    expect(result.primaryAgent).toBe('book');
    expect(result.secondaryAgents).toEqual(['hardware']);
    expect(result.confidence).toBeGreaterThan(0.9);
    expect(result.routingReason).toMatch(
      /^Arbiter: book \(p=0\.\d+\) over the rules' module_info .*The rules said: Intent phase/,
    );
  });

  it("does not reorder the rules' asks: a pick that is already a later ask changes nothing", () => {
    const result = decision({ secondaryAgents: ['book'], isMultiDomain: true });
    arbitrate(
      compileArbiter(derailleurModel()),
      'How does it shift, and what is a derailleur?',
      result,
    );
    expect(result.primaryAgent).toBe('module_info');
    expect(result.secondaryAgents).toEqual(['book']);
  });

  it('keeps the rules on a tie, and never reviews an explicit route', () => {
    const empty = { ...derailleurModel(), weights: {} };
    const kept = decision();
    arbitrate(compileArbiter(empty), 'How does a derailleur work?', kept);
    expect(kept).toEqual(decision());
    const explicit = decision({ phase: 'explicit' });
    arbitrate(compileArbiter(derailleurModel()), 'derailleur', explicit);
    expect(explicit.primaryAgent).toBe('module_info');
  });

  it("never reviews what the rules are sure of: arithmetic, a subject surely not the book's", () => {
    const model = {
      ...derailleurModel(),
      weights: { 'w=3.5': [0, 0, 5, 0, 0], 'w=gold': [0, 0, 0, 5, 0] },
    };
    const fallback = (overrides: Partial<RouteResult> = {}) =>
      decision({ primaryAgent: 'book', phase: 'fallback', ...overrides });
    const arithmetic = fallback();
    arbitrate(compileArbiter(model), 'what is 3.5 * 4', arithmetic);
    expect(arithmetic.primaryAgent).toBe('book');
    const market = fallback({
      offTopic: { subject: ['gold'], uncovered: ['gold'], certain: true },
    });
    arbitrate(compileArbiter(model), 'gold price today', market);
    expect(market.primaryAgent).toBe('book');
    // Not sure: reviewed as before.
    const unsure = fallback({ offTopic: { subject: ['gold'], uncovered: ['gold'] } });
    arbitrate(compileArbiter(model), 'gold price today', unsure);
    expect(unsure.primaryAgent).toBe('hardware');
  });

  it("drops one ask's secondary agents when it picks the fallback, not a multi-part question's", () => {
    const oneAsk = decision({ secondaryAgents: ['hardware'], isMultiDomain: true });
    arbitrate(compileArbiter(derailleurModel()), 'How does a bicycle derailleur work?', oneAsk, {
      keywords: {},
      probabilities: {},
      onTopic: false,
      multiPart: false,
    });
    expect(oneAsk.primaryAgent).toBe('book');
    expect(oneAsk.secondaryAgents).toEqual([]);
    expect(oneAsk.isMultiDomain).toBe(false);
    const multiPart = decision({ secondaryAgents: ['hardware'], isMultiDomain: true });
    arbitrate(
      compileArbiter(derailleurModel()),
      'How does a derailleur work, and what GPU?',
      multiPart,
      {
        keywords: {},
        probabilities: {},
        onTopic: false,
        multiPart: true,
      },
    );
    expect(multiPart.primaryAgent).toBe('book');
    expect(multiPart.secondaryAgents).toEqual(['hardware']);
  });

  it("drops the off-topic subject when a specialist is picked over the fallback's decision", () => {
    const model = { ...derailleurModel(), weights: { 'w=costmap': [0, 0, 5, 0, 0] } };
    const result = decision({
      primaryAgent: 'book',
      phase: 'fallback',
      offTopic: { subject: ['costmap'], uncovered: ['costmap'] },
    });
    arbitrate(compileArbiter(model), 'costmap?', result);
    expect(result.primaryAgent).toBe('glossary');
    expect(result.offTopic).toBeUndefined();
  });

  it('applies only to the agents it was fitted for', () => {
    const model = derailleurModel();
    expect(arbiterFits(model, [...AGENTS].reverse(), 'book')).toBe(true);
    expect(arbiterFits(model, ['book', 'chef'], 'book')).toBe(false);
    expect(arbiterFits(model, AGENTS, 'glossary')).toBe(false);
  });
});

// What the rules knew of a question: some of the book's coverage, keyword scores, probabilities.
const EVIDENCE: ArbiterEvidence = {
  grounding: {
    score: 0.4,
    together: 0.3,
    uncovered: ['derailleur', 'gravel'],
    named: false,
    namesOnly: false,
    judged: true,
    domainShares: { module_info: 0.7, hardware: 0.3 },
  },
  keywords: { hardware: { score: 0.6 }, glossary: { score: 0 } },
  probabilities: { hardware: 0.5, module_info: 0.3, book: 0.2 },
  onTopic: true,
};

describe('what the rules knew, as features', () => {
  it('reads the book coverage, every keyword score and probability, in a fixed order', () => {
    expect(evidenceFeatures(EVIDENCE)).toEqual([
      ['gs', 0.4],
      ['gt', 0.3],
      ['gu=2', 1],
      ['gd=module_info', 0.7],
      ['gd=hardware', 0.3],
      ['k=hardware', 0.6],
      ['q=hardware', 0.5],
      ['q=module_info', 0.3],
      ['q=book', 0.2],
      ['on', 1],
    ]);
  });
  it('reads the probabilities best first when the ranking is given, whatever their own order', () => {
    const ranked = [
      { label: 'hardware', probability: 0.5 },
      { label: 'module_info', probability: 0.3 },
      { label: 'book', probability: 0.2 },
    ];
    // The classifier's object holds them in its labels' order; the ranking decides the order.
    const inLabelOrder = {
      ...EVIDENCE,
      probabilities: { book: 0.2, hardware: 0.5, module_info: 0.3 },
    };
    expect(evidenceFeatures({ ...inLabelOrder, ranked })).toEqual(evidenceFeatures(EVIDENCE));
    const compiled = compileArbiter(unpackArbiter(readArbiter(ROUTING_ARBITER_FILE)));
    const result = decision();
    const expected = Array.from(compiled.logits('What is a costmap?', result, EVIDENCE));
    expect(
      Array.from(compiled.logits('What is a costmap?', result, { ...inLabelOrder, ranked })),
    ).toEqual(expected);
  });
  it('changes a decision through the same path as the words do', () => {
    // A model whose only weight is on "most of the subject uncovered": book over the rules' pick.
    const model: RoutingArbiterModel = {
      version: 1,
      agents: AGENTS,
      defaultAgent: 'book',
      charGrams: false,
      ridge: 1,
      fittedOn: 1,
      bias: AGENTS.map(() => 0),
      weights: { 'gu=2': AGENTS.map((agent) => (agent === 'book' ? 5 : 0)) },
    };
    const result = decision();
    arbitrate(compileArbiter(model), 'Which derailleur suits a gravel bike?', result, EVIDENCE);
    expect(result.primaryAgent).toBe('book');
    const without = decision();
    arbitrate(compileArbiter(model), 'Which derailleur suits a gravel bike?', without);
    expect(without.primaryAgent).not.toBe('book');
  });
});

describe('the compiled arbiter', () => {
  it('gives the logits of the feature list, on the shipped model and odd questions', () => {
    const model = unpackArbiter(readArbiter(ROUTING_ARBITER_FILE));
    const compiled = compileArbiter(model);
    const questions = [
      'How does a bicycle derailleur work?',
      'waht is a costmap costmap costmap?',
      'What hardware do I need for the capstone, and what does SLAM stand for?',
      'ÉLAN — café robots?',
      '',
      'x',
    ];
    for (const query of questions)
      for (const result of [
        decision(),
        decision({
          phase: 'fallback',
          primaryAgent: 'book',
          offTopic: { subject: ['x'], uncovered: ['x'] },
        }),
      ]) {
        for (const evidence of [undefined, EVIDENCE]) {
          const expected = arbiterProbabilities(
            model,
            arbiterFeatures(query, result, model.charGrams, evidence),
          );
          const logits = Array.from(compiled.logits(query, result, evidence));
          const max = Math.max(...logits);
          const exps = logits.map((z) => Math.exp(z - max));
          const sum = exps.reduce((a, b) => a + b, 0);
          exps.forEach((e, k) => expect(e / sum).toBeCloseTo(expected[k]!, 9));
        }
      }
  });
});

describe("the compiled arbiter's memory of words", () => {
  it('gives the same logits for words it keeps, words past its limit and after its rows grow', () => {
    const packed = readArbiter(ROUTING_ARBITER_FILE);
    const fresh = compileArbiter(packed);
    const filled = compileArbiter(packed);
    const seen = ['What is a ROS 2 topic?', 'waht is a costmap costmap costmap?'];
    const unseen = ['Which derailleur suits a gravel bike, and is Shimano better for touring?'];
    const result = decision();
    for (const query of seen) filled.logits(query, result);
    // 20,000 made-up words: the rows of those with weights outgrow their first array, and the
    // memory of words is full, so the words of `unseen` are read each time.
    for (let i = 0; i < 400; i += 1)
      filled.logits(Array.from({ length: 50 }, (_, j) => `qz${i}x${j}ing`).join(' '), result);
    for (const query of [...seen, ...unseen])
      expect(Array.from(filled.logits(query, result))).toEqual(
        Array.from(fresh.logits(query, result)),
      );
  });
});

describe("the compiled arbiter reading the caller's word slots", () => {
  it('gives the same logits with slots, fresh or filled, and never reads another arbiter’s', () => {
    const packed = readArbiter(ROUTING_ARBITER_FILE);
    const one = compileArbiter(packed);
    const other = compileArbiter(derailleurModel());
    const plain = compileArbiter(packed);
    const result = decision();
    for (const query of [
      'What is a ROS 2 topic?',
      'How does a bicycle derailleur work, and what is a costmap costmap?',
      'derailleur derailleur',
    ]) {
      const words = textWords(query).words;
      const slots = words.map(() => ({ arbiterOf: undefined, arbiterWord: undefined }));
      const withSlots = (arbiter: CompiledArbiter) =>
        Array.from(arbiter.logits(query, result, { ...EVIDENCE, words, slots }));
      // First read fills the slots, the second reads them; the other arbiter finds them
      // written by another and looks its words up itself, in turn.
      for (let round = 0; round < 2; round += 1) {
        expect(withSlots(one)).toEqual(Array.from(plain.logits(query, result, EVIDENCE)));
        expect(withSlots(other)).toEqual(
          Array.from(compileArbiter(derailleurModel()).logits(query, result, EVIDENCE)),
        );
      }
      // Slots of other words (not the same split) are not read.
      const stranger = words.map(() => ({ arbiterOf: undefined, arbiterWord: undefined }));
      expect(
        Array.from(one.logits(query, result, { ...EVIDENCE, words: [...words], slots: stranger })),
      ).toEqual(Array.from(plain.logits(query, result, EVIDENCE)));
      expect(stranger.every((slot) => slot.arbiterOf === undefined)).toBe(true);
    }
  });
});

describe('the packed arbiter', () => {
  it('gives the same logits to the bit, read packed from its file or compiled from the table', () => {
    const packed = readArbiter(ROUTING_ARBITER_FILE);
    const fromFile = compileArbiter(packed);
    const fromTable = compileArbiter(unpackArbiter(packed));
    const results = [
      decision(),
      decision({ phase: 'keyword', primaryAgent: 'glossary', scores: { glossary: 2, book: 0.5 } }),
      decision({
        phase: 'fallback',
        primaryAgent: 'book',
        offTopic: { subject: ['x'], uncovered: ['x'] },
      }),
    ];
    for (const query of [
      'What is a ROS 2 topic?',
      'waht is a costmap costmap costmap?',
      'What hardware do I need for the capstone, and what does SLAM stand for?',
      '',
    ])
      for (const result of results)
        expect(Array.from(fromFile.logits(query, result))).toEqual(
          Array.from(fromTable.logits(query, result)),
        );
  });

  it('packs and unpacks a model without changing a weight', () => {
    const model = derailleurModel();
    model.weights['b=bike_gear'] = [0.125, -1, 0, 0, 2.5];
    const packed = packArbiter(model);
    expect(packed.features).toEqual(['w=derailleur', 'b=bike_gear']);
    expect(packed.weights).toEqual([5, 0, 0, 0, 0, 0.125, -1, 0, 0, 2.5]);
    expect(unpackArbiter(packed)).toEqual(model);
  });
});

describe('fitArbiter', () => {
  const examples = [
    ['How much is the gold price?', 'book', decision({ primaryAgent: 'hardware' })],
    ['What is the price of gold today?', 'book', decision({ primaryAgent: 'hardware' })],
    ['Price of the Jetson kit?', 'hardware', decision({ primaryAgent: 'hardware' })],
    ['How much does the Jetson cost?', 'hardware', decision({ primaryAgent: 'hardware' })],
    ['How does a costmap work?', 'module_info', decision()],
    ['How does the costmap inflate?', 'module_info', decision()],
  ] as const;
  const fit = () =>
    fitArbiter(
      examples.map(([query, agent, result]) => ({
        features: arbiterFeatures(query, result, false),
        agent,
      })),
      { agents: AGENTS, defaultAgent: 'book', charGrams: false, ridge: 0.1, minCount: 1 },
    );

  it('learns where the rules are wrong, and is deterministic', () => {
    const model = fit();
    expect(model).toEqual(fit());
    expect(model.fittedOn).toBe(6);
    const result = decision({ primaryAgent: 'hardware' });
    arbitrate(compileArbiter(model), 'gold price this week?', result);
    expect(result.primaryAgent).toBe('book');
    const jetson = decision({ primaryAgent: 'hardware' });
    arbitrate(compileArbiter(model), 'Jetson price?', jetson);
    expect(jetson.primaryAgent).toBe('hardware');
    const p = arbiterProbabilities(model, arbiterFeatures('costmap', decision(), false));
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('refuses a label that is not one of its agents', () => {
    expect(() =>
      fitArbiter([{ features: [['w=x', 1]], agent: 'chef' }], {
        agents: AGENTS,
        defaultAgent: 'book',
        charGrams: false,
        ridge: 1,
      }),
    ).toThrow(/"chef" is not one of book, capstone/);
  });
});

describe('the arbiter file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-arbiter-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const failure = (path: string) => {
    try {
      readArbiter(path);
    } catch (error) {
      return error;
    }
    throw new Error('expected readArbiter to fail');
  };

  it('ships a valid model fitted for the book agents', () => {
    const { model } = ROUTING_ARBITER();
    expect(headerOf(readArbiter(ROUTING_ARBITER_FILE))).toEqual(model);
    expect(arbiterFits(model, AGENTS, 'book')).toBe(true);
    expect(model.fittedOn).toBeGreaterThan(1000);
  });

  it('names the file and what is wrong when it is missing, not JSON, or malformed', () => {
    for (const [path, message] of [
      [join(dir, 'absent.json'), /could not be read.*ENOENT/],
      [file('bad.json', '{'), /could not be read/],
      // A table of weights (version 1, the layout before the packed one) is refused too.
      [file('table.json', JSON.stringify(derailleurModel())), /is not a valid model: version/],
      [
        file(
          'weights.json',
          JSON.stringify({ ...packArbiter(derailleurModel()), weights: [1, 'x', 0, 0, 0] }),
        ),
        /is not a valid model: weights: must be a list of finite numbers/,
      ],
      [
        file('ragged.json', JSON.stringify({ ...packArbiter(derailleurModel()), bias: [0] })),
        /one weight per agent \(5\)/,
      ],
      [
        file(
          'short.json',
          JSON.stringify({ ...packArbiter(derailleurModel()), weights: [1, 0, 0, 0] }),
        ),
        /one weight per agent \(5\)/,
      ],
      [
        file(
          'twice.json',
          JSON.stringify({
            ...packArbiter(derailleurModel()),
            features: ['w=gear', 'w=gear'],
            weights: new Array(10).fill(0),
          }),
        ),
        /features: a feature is named twice/,
      ],
    ] as const) {
      const error = failure(path);
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain('routing.arbiter to false');
    }
  });
});

describe('the router with an arbiter', () => {
  const query = 'How does a bicycle derailleur work?';

  it('lets the arbiter review book decisions, and leaves them alone when turned off', () => {
    const reviewed = createRouter(createBookRegistry(), { arbiter: derailleurModel() });
    const rulesOnly = createRouter(createBookRegistry(), { arbiter: false });
    expect(rulesOnly.route(query).primaryAgent).not.toBe('book');
    expect(reviewed.route(query).primaryAgent).toBe('book');
    expect(reviewed.explain(query).result.primaryAgent).toBe('book');
    expect(reviewed.route(query, { agent: 'hardware' }).primaryAgent).toBe('hardware');
  });

  it('leaves a router without book knowledge to its rules: the fitted arbiter learnt with it', () => {
    // The fitted arbiter, refitted on 5,470 decisions, sent the spec's R3 example to book when
    // handed a router's evidence without the book's coverage, which it never saw.
    const bare = createRouter(createBookRegistry());
    const rulesOnly = createRouter(createBookRegistry(), { arbiter: false });
    for (const question of [
      'What hardware supports ROS 2?',
      'How do I map a network drive on Windows?',
      'Are we allowed groups of five on the big end project or is there a cap?',
    ]) {
      const decision = bare.route(question);
      expect(decision).toEqual(rulesOnly.route(question));
      expect(decision.routingReason).not.toMatch(/^Arbiter/);
    }
    expect(bare.route('What hardware supports ROS 2?').primaryAgent).toBe('hardware');
  });
});

describe('the fitted arbiter over the sample book', () => {
  // Tuning questions the rules send to the wrong agent: the arbiter, fitted on them and their
  // kind, corrects them through the real path (book knowledge, rules, calibration, arbiter).
  const cases = [
    ['Why does my printer say it is offline?', 'book'],
    ['How do I map a network drive on Windows?', 'book'],
    // (The refit with the tenth set's tuning half no longer corrects "What machine should I have
    // under my desk to follow along?": a fitted model, not a lookup of its examples.)
    ['which robot platform would you recommend for teaching undergrads', 'hardware'],
    ['Are we allowed groups of five on the big end project or is there a cap?', 'capstone'],
  ] as const;

  // The first case waits for both routers to be built from the sample book: 40 s on a loaded
  // machine, past the suite's 30 s default.
  it.each(cases)(
    '%j → %s, where the rules alone say otherwise',
    async (query, agent) => {
      const [withArbiter, rulesOnly] = await routers;
      expect(rulesOnly.route(query).primaryAgent).not.toBe(agent);
      const result = withArbiter.route(query);
      expect(result.primaryAgent).toBe(agent);
      expect(result.routingReason).toMatch(/^Arbiter: /);
    },
    120_000,
  );

  it('keeps the spec R10 matrix', async () => {
    const [router] = await routers;
    expect(router.route('What is a topic?').primaryAgent).toBe('glossary');
    expect(router.route('Isaac hardware requirements').primaryAgent).toBe('hardware');
    expect(router.route('How does ROS 2 work?').primaryAgent).toBe('module_info');
    expect(router.route('Capstone milestones').primaryAgent).toBe('capstone');
    expect(router.route('Unknown random query').primaryAgent).toBe('book');
  });
});

const routers = Promise.all([sampleBookRouter(), sampleBookRouter({ arbiter: false })]);
