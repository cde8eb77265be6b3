import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { bookStructurePhase } from './book-structure.js';

describe('bookStructurePhase', () => {
  it.each([
    'Is there a section about the costmap?',
    'Which week do we get to Nav2 and topics?',
    'Which chapter should I start with if I only care about Gazebo?',
    'Does the course assume I already know ROS 2?',
    'In which chapter is the Jetson Orin compared with a workstation?',
    // The work's other names (work-names.ts) were not read here: "the guide", "the docs".
    'Does the guide cover the costmap?',
    'Do the docs discuss Nav2?',
    'Does this class teach Gazebo?',
  ])('sends an ask about where the book covers something to the default agent: %j', (query) => {
    const decision = bookStructurePhase(testContext(query));
    expect(decision?.primary).toBe('book');
    expect(decision?.reason).toMatch(/book's own structure/);
  });
  it.each([
    'Chapter 3 lost me. How do ROS 2 topics deliver messages?',
    'What does the costmap chapter say about inflation?',
    'Which GPU should the workstation have?',
    // "the class" is a class in code (work-names.ts), as everywhere else.
    'Does the class include a destructor?',
    'How does the week-long training run on a cloud instance cost so much?',
  ])('leaves a question about the subject itself to later phases: %j', (query) => {
    expect(bookStructurePhase(testContext(query))).toBeUndefined();
  });
});
