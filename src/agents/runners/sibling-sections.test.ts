import { describe, expect, it } from 'vitest';
import { analyze } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import { siblingSections } from './sibling-sections.js';

const section = (path: string[], ord: number, source = 'capstone.md'): RetrievedChunk => ({
  id: path.join('/'),
  text: '- Basic locomotion and balance\n- Simple manipulation capabilities',
  source,
  title: path[0] ?? '',
  section: path.slice(1).join(' > '),
  score: 0.6,
  metadata: { headingPath: path, ord },
});

const terms = (text: string) => analyze(text);
const asked = (query: string) => new Set(analyze(query));
const roadmap = (own: string, ord: number) =>
  section(['Capstone', 'Implementation Roadmap', 'Development Phases', own], ord);

describe('siblingSections: a list the book writes as sections of their own', () => {
  const phases = [
    roadmap('Phase 2: Integration', 12),
    roadmap('Phase 3: Autonomy', 13),
    roadmap('Phase 1: Foundation', 11),
    roadmap('Phase 4: Deployment', 14),
    section(['Kinematics', 'Redundant Manipulation', 'Task Prioritization'], 3, 'kinematics.md'),
  ];

  it("gives the sections under a heading that names the listed noun, in the book's order", () => {
    const found = siblingSections('phases', phases, terms, asked('phases of the capstone project'));
    expect(found?.chunks).toEqual([2, 0, 1, 3]);
  });

  it('are not the parts of one long section', () => {
    // The ROS 2 docs' "QoS policies", cut in two where it outgrew a chunk: one section, its list
    // quoted as a list, not each part's opening as a section of its own.
    const parts = [
      section(['Quality of Service settings', 'QoS policies'], 2),
      section(['Quality of Service settings', 'QoS policies'], 3),
    ];
    expect(siblingSections('policies', parts, terms, asked('What are the QoS policies?'))).toBe(
      undefined,
    );
  });

  it('takes sections whose own headings all name the noun when their parent does not', () => {
    const plain = [
      section(['Course', 'Plan', 'Phase 1: Basics'], 1),
      section(['Course', 'Plan', 'Phase 2: Practice'], 2),
    ];
    expect(siblingSections('phases', plain, terms, asked('course phases'))?.chunks).toEqual([0, 1]);
  });

  it('finds no list in one section, nor in siblings that do not name the noun', () => {
    expect(siblingSections('phases', phases.slice(0, 1), terms, asked('phases'))).toBeUndefined();
    const unrelated = [
      section(['Kinematics', 'Joints', 'Revolute Joints'], 1),
      section(['Kinematics', 'Joints', 'Prismatic Joints'], 2),
    ];
    expect(siblingSections('phases', unrelated, terms, asked('phases'))).toBeUndefined();
  });

  it("is not a list when the question names one section's own word", () => {
    // "Which architecture optimization techniques …" asks for "Architecture Optimization", not
    // every section under "Optimization Techniques".
    const techniques = [
      section(['Cloud', 'Optimization Techniques', 'Architecture Optimization'], 7),
      section(['Cloud', 'Optimization Techniques', 'Resource Optimization'], 6),
    ];
    const query = 'Which architecture optimization techniques does the book recommend?';
    expect(siblingSections('techniques', techniques, terms, asked(query))).toBeUndefined();
    expect(
      siblingSections('techniques', techniques, terms, asked('Which optimization techniques?'))
        ?.chunks,
    ).toEqual([1, 0]);
  });

  it('leaves out passages the caller did not keep', () => {
    expect(
      siblingSections('phases', phases, terms, asked('phases'), (i) => i !== 1)?.chunks,
    ).toEqual([2, 0, 3]);
  });
});
