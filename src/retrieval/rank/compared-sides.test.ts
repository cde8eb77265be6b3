import { describe, expect, it } from 'vitest';
import { comparedSides } from './compared-sides.js';

describe('comparedSides: the two things a comparison asks about', () => {
  it.each([
    [
      'What is the difference between static balance and dynamic balance?',
      ['static balance', 'dynamic balance'],
    ],
    [
      'What is the difference between a revolute joint and a continuous joint?',
      ['revolute joint', 'continuous joint'],
    ],
    [
      'What is the difference between early fusion and late fusion in VLA systems?',
      ['early fusion', 'late fusion'],
    ],
    ['How do AWS P3 and P4 instances differ?', ['AWS P3', 'P4 instances']],
    [
      'What is the difference between forward and inverse kinematics?',
      ['forward kinematics', 'inverse kinematics'],
    ],
    ['How is ROS 2 different from ROS 1?', ['ROS 2', 'ROS 1']],
    ['How does the Unitree Go2 compare to the Unitree H1?', ['Unitree Go2', 'Unitree H1']],
    ['topics vs services', ['topics', 'services']],
    ['Compare Gazebo and Isaac Sim', ['Gazebo', 'Isaac Sim']],
  ])('%s', (query, sides) => {
    expect(comparedSides(query)).toEqual(sides);
  });

  it.each(['What is a ROS 2 topic?', 'How do nodes and topics work together?'])(
    'compares nothing: %s',
    (query) => {
      expect(comparedSides(query)).toBeUndefined();
    },
  );
});
