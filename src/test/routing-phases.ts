import { DEFAULT_MIN_GROUNDING, DEFAULT_ROUTING_THRESHOLD } from '../config/index.js';
import { createBookRegistry } from '../routing/book-registry.js';
import { learnBookKnowledge } from '../routing/book-knowledge.js';
import { phaseContext } from '../routing/phases/phase-context.js';
import type { PhaseContext, PhaseSettings } from '../routing/phases/phase.js';
import { DEFAULT_MIN_CONFIDENCE } from '../routing/router.js';
import { buildRoutingModel, type RoutingModel } from '../routing/routing-model.js';

/** The router's default thresholds, as the phase tests use them. */
export const TEST_PHASE_SETTINGS: PhaseSettings = {
  threshold: DEFAULT_ROUTING_THRESHOLD,
  minConfidence: DEFAULT_MIN_CONFIDENCE,
  minGrounding: DEFAULT_MIN_GROUNDING,
};

// A few chapters of a small robotics book, by domain: enough for the subject check and the
// subject's home chapters, written for these tests (not taken from the corpus).
const TEST_BOOK = [
  [
    'module_info',
    'ROS 2 nodes exchange messages over topics; a publisher sends and a subscriber receives.',
  ],
  [
    'module_info',
    'Nav2 plans a path and the controller follows it while the costmap marks obstacles.',
  ],
  [
    'module_info',
    'Gazebo simulates physics, sensors and the revolute joints of the URDF robot model.',
  ],
  ['hardware', 'The workstation needs an RTX GPU with 24 GB of VRAM and 64 GB of RAM.'],
  ['hardware', 'A Jetson Orin runs inference on the robot; a gaming rig can train policies.'],
  ['hardware', 'Cloud instances rent GPUs by the hour; spot instances cost less.'],
  [
    'capstone',
    'The capstone project integrates voice, planning and grasping; teams demo at the end.',
  ],
  ['glossary', 'Topic: a named bus over which nodes exchange messages.'],
  ['general', 'This book teaches physical AI over thirteen weeks.'],
] as const;

type TestModels = { plain: RoutingModel; grounded: RoutingModel; licensed: RoutingModel };
let cached: TestModels | undefined;

/**
 * Routing models over the shipped agents: `plain` without book knowledge, `grounded` with the test
 * book's, `licensed` with the test book's, a licence page and acknowledgments.
 */
export function testRoutingModels(): TestModels {
  if (cached) return cached;
  const registry = createBookRegistry();
  const agents = registry.all();
  const fallback = registry.defaultAgent.name;
  const knowledge = learnBookKnowledge(
    TEST_BOOK.map(([domain, text], i) => ({
      domain,
      text,
      title: `Chapter ${i + 1}`,
      headingPath: [`Chapter ${i + 1}`],
    })),
  );
  cached = {
    plain: buildRoutingModel(agents, fallback),
    grounded: buildRoutingModel(agents, fallback, { knowledge }),
    licensed: buildRoutingModel(agents, fallback, {
      knowledge: { ...knowledge, licencePage: true, acknowledgments: true },
    }),
  };
  return cached;
}

/** The phase context of `query` over the grounded test model (or `plain`), default settings. */
export function testContext(query: string, model: keyof TestModels = 'grounded'): PhaseContext {
  return phaseContext(testRoutingModels()[model], query, TEST_PHASE_SETTINGS);
}
