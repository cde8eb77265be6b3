import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import {
  asksAboutTheCourse,
  COURSE_META_FACTOR,
  courseMetaPrior,
  isCourseMeta,
} from './course-meta.js';

describe('course-meta sections', () => {
  it('are the headings that list a course rather than explain a topic', () => {
    expect(isCourseMeta(['Chapter 4', 'Learning Objectives'])).toBe(true);
    expect(
      isCourseMeta(['Weekly Breakdown', 'Weekly Structure', 'Week 6: URDF and Robot Modeling']),
    ).toBe(true);
    expect(isCourseMeta(['Outcomes', 'Course Learning Outcomes', 'LO3: Robot Modeling'])).toBe(
      true,
    );
    expect(isCourseMeta(['Chapter 4', 'URDF Structure', 'Joints'])).toBe(false);
    // A heading that only starts like one explains its topic.
    expect(isCourseMeta(['Chapter 9', 'Summary Statistics of Rewards'])).toBe(false);
  });

  it('keep a share of their score, and a corpus without them gets no prior', () => {
    const { chunks } = prepareDocument(
      'c.md',
      '# C\n\n## Summary\n\nAll of it.\n\n## Joints\n\nJoints.\n',
    );
    expect([...(courseMetaPrior(chunks) ?? [])]).toEqual([COURSE_META_FACTOR, 1]);
    const plain = prepareDocument('d.md', '# D\n\n## Joints\n\nJoints.\n').chunks;
    expect(courseMetaPrior(plain)).toBeUndefined();
  });

  it('answer questions about the course', () => {
    expect(asksAboutTheCourse('Which week covers URDF?')).toBe(true);
    expect(asksAboutTheCourse('What will I learn in chapter 4?')).toBe(true);
    expect(asksAboutTheCourse('what joint types are there in urdf')).toBe(false);
  });
});
