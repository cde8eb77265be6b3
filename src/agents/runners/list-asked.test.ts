import { describe, expect, it } from 'vitest';
import { listAsked } from './list-asked.js';

describe('listAsked: the plural noun a question asks a list of', () => {
  it.each([
    ['What are the lifecycle states of a ROS 2 lifecycle node?', 'states'],
    ['What are the key characteristics of a digital twin?', 'characteristics'],
    ['What are the components of the reinforcement learning framework?', 'components'],
    ['Which safety standards does the book list?', 'standards'],
    ['What are the parts of this book?', 'parts'],
    ['Which path planning algorithms does Nav2 use?', 'algorithms'],
    ['What sensors does the Unitree G1 have?', 'sensors'],
    ['List the phases of the capstone roadmap.', 'phases'],
    ['Can you name all the learning outcomes?', 'outcomes'],
    ['What kinds of joints does URDF support?', 'joints'],
    // A kind word names the list's kind, not its items: the book lists them under "Joints".
    ['What joint types does URDF support?', 'joint'],
    ['What are the different types of joints?', 'joints'],
    ['Which executor types does rclcpp provide?', 'executor'],
    ['What types can a ROS 2 parameter value have?', 'types'],
    // A follow-up's "its" filled in with the subject of the turn before.
    ["What are digital twin's key characteristics?", 'characteristics'],
    ["What are ROS 2's main features?", 'features'],
  ])('%s → %s', (query, noun) => {
    expect(listAsked(query)).toBe(noun);
  });

  it.each([
    'What are nodes in ROS 2?',
    'What is a lifecycle node?',
    'What are the differences between topics and services?',
    'Which week covers VSLAM?',
    'How does the planning process work?',
    'What is the focus of chapter 3?',
  ])('asks for no list: %s', (query) => {
    expect(listAsked(query)).toBeUndefined();
  });
});
