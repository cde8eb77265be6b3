import type { ContentDomain } from '../../schema/index.js';

/** What a rule looks at: the file path and title, the section's headings, or its body text. */
type Scope = 'document' | 'heading' | 'content';

/** One row of the tagging table: the first matching row decides. */
interface DomainRule {
  domain: ContentDomain;
  scope: Scope;
  pattern: RegExp;
  /** Content rules need this many distinct cue words, so one passing mention is not enough. */
  minHits?: number;
  /** Content rules only refine documents that the document rules left as this domain. */
  onlyWithin?: ContentDomain;
}

/**
 * The rule table, strongest cues first (documented for users in docs/book-assistant.md):
 *
 * 1. Heading rules tag single sections, from the section's own headings (not the title): a
 *    "What is X?", "Glossary" or "Key terms" section is `glossary`, a "Capstone …" section
 *    `capstone`, a "Jetson", "GPU", "Workstation" or "Cloud compute" section `hardware`.
 * 2. Document rules tag the rest of the file from its path and title: glossary or terminology
 *    files; capstone files; hardware, lab-options, robot-lab, cloud/compute-options and
 *    workstation files; then chapters of numbered course modules (`module-1-ros2/…`,
 *    `unit_3/…`, `lesson-2/…`, a `modules/` folder, a title "Module 4: …") and files named after
 *    the course's module topics (ROS 2 fundamentals, simulation, digital twin, Isaac, SLAM, Nav2,
 *    kinematics, locomotion, manipulation, VLA, control, perception, URDF, reinforcement learning)
 *    are `module_info`.
 * 3. Content rules refine files still `general`: three distinct hardware words (GPU, VRAM, RAM,
 *    Jetson, watts, pricing…) in one chunk make it `hardware`.
 * 4. Anything else is `general` (introductions, weekly plans, licences, references).
 */
export const DOMAIN_RULES: readonly DomainRule[] = [
  {
    domain: 'glossary',
    scope: 'heading',
    pattern: /\b(glossary|terminology|definitions?|key terms)\b|^what (is|are)\b/i,
  },
  { domain: 'capstone', scope: 'heading', pattern: /\bcapstone\b/i },
  {
    domain: 'hardware',
    scope: 'heading',
    pattern:
      /\b(hardware (overview|requirements|platforms?)|workstations?|jetson|gpu|edge (kit|computing)|unitree|robot lab|cloud (compute|computing|providers?)|instance (types|family|specifications))\b/i,
  },
  { domain: 'glossary', scope: 'document', pattern: /\b(glossary|terminology)\b/i },
  { domain: 'capstone', scope: 'document', pattern: /\bcapstone\b/i },
  {
    domain: 'hardware',
    scope: 'document',
    pattern:
      /\b(hardware|lab[ -]options|robot[ -]lab|cloud[ -]compute|compute[ -]options|workstation)\b/i,
  },
  {
    // Course structure: a file under a numbered module folder ("module-1-ros2/", "modules/unit_3/")
    // or titled "Module 2: …" is a chapter of a course module, whatever its topic words.
    domain: 'module_info',
    scope: 'document',
    pattern: /\b(?:modules?|units?|lessons?)[ -]?\d+\b|^modules\b/i,
  },
  {
    domain: 'module_info',
    scope: 'document',
    pattern:
      /\b(physical[ -]ai|ros ?2[ -]fundamentals|simulation|digital[ -]twin|isaac|v?slam|nav2|navigation|kinematics|locomotion|manipulation|vision[ -]language|vla|control[ -]systems?|perception|urdf|reinforcement|rl[ -]basics|concepts|tutorials|how[ -]to[ -]guides)\b/i,
  },
  {
    domain: 'hardware',
    scope: 'content',
    pattern:
      /\b(gpus?|cpus?|vram|ram|jetson|ssd|watts?|tops|memory|storage|pricing|per hour|usd)\b|\$\d/gi,
    minHits: 3,
    onlyWithin: 'general',
  },
  { domain: 'general', scope: 'document', pattern: /./ },
];

/** What the tagger reads of a chunk. */
export interface TaggableChunk {
  source: string;
  title: string;
  headingPath: string[];
  text: string;
}

const distinctHits = (pattern: RegExp, text: string) =>
  new Set(Array.from(text.matchAll(pattern), (m) => m[0].toLowerCase())).size;

/** The domain of a whole file, from its path and title alone. */
export function documentDomain(source: string, title: string): ContentDomain {
  const haystack = `${source.replace(/[/_.]/g, ' ')} ${title}`;
  for (const rule of DOMAIN_RULES) {
    if (rule.scope === 'document' && rule.pattern.test(haystack)) return rule.domain;
  }
  return 'general';
}

/**
 * Tags one chunk with a content domain (spec R8): heading cues first, then the file's domain,
 * then content cues for files that are otherwise general.
 *
 * @example
 * tagDomain({ source: 'chapter-15-hardware-overview/index.md', title: 'Hardware Overview',
 *   headingPath: ['Hardware Overview', 'Jetson Models'], text: '…' }); // 'hardware'
 */
export function tagDomain(chunk: TaggableChunk): ContentDomain {
  const ownHeadings = chunk.headingPath.slice(1);
  for (const rule of DOMAIN_RULES) {
    if (rule.scope !== 'heading') continue;
    if (ownHeadings.some((heading) => rule.pattern.test(heading))) return rule.domain;
  }
  const base = documentDomain(chunk.source, chunk.title);
  for (const rule of DOMAIN_RULES) {
    if (rule.scope !== 'content' || rule.onlyWithin !== base) continue;
    if (distinctHits(rule.pattern, chunk.text) >= (rule.minHits ?? 1)) return rule.domain;
  }
  return base;
}
