import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { definitionPhase } from './definition.js';

describe('definitionPhase (R3)', () => {
  it('sends "What is X?" about a module term to the definer, saying the term is module vocabulary', () => {
    const decision = definitionPhase(testContext('What exactly is a node in ROS 2?'));
    expect(decision?.primary).toBe('glossary');
    expect(decision?.phase).toBe('intent');
    expect(decision?.reason).toMatch(/R3.*module_info vocabulary/);
    expect(decision?.confidence).toBeGreaterThanOrEqual(0.5);
  });
  it('leaves questions of another form and questions about the book itself to later phases', () => {
    expect(definitionPhase(testContext('How do ROS 2 nodes talk to each other?'))).toBeUndefined();
    expect(definitionPhase(testContext("What is this book's license?"))).toBeUndefined();
  });
  it('reads "in this book\'s sense" as placing the term, not as a question about the book', () => {
    for (const query of [
      "whats a costmap in this book's sense",
      'define a topic as the book uses it',
      // The work's other names (work-names.ts): "the syllabus" is also a name of the book.
      'whats a costmap as used in the syllabus',
    ])
      expect(definitionPhase(testContext(query))?.primary, query).toBe('glossary');
  });
});
