import { describe, expect, it } from 'vitest';
import { documentDomain, tagDomain } from './domain-tagger.js';

const chunk = (source: string, title: string, headings: string[], text = 'Some body text.') => ({
  source,
  title,
  headingPath: [title, ...headings],
  text,
});

describe('tagDomain', () => {
  it('tags files by path and title', () => {
    expect(documentDomain('chapter-15-hardware-overview/index.md', 'Hardware Overview')).toBe(
      'hardware',
    );
    expect(
      documentDomain('chapter-17-cloud-compute-options/index.md', 'Cloud Compute Options'),
    ).toBe('hardware');
    expect(documentDomain('chapter-13-capstone-concept/index.md', 'Capstone Concept')).toBe(
      'capstone',
    );
    expect(documentDomain('chapter-08-nvidia-isaac-sim-vslam-nav2/index.md', 'VSLAM & Nav2')).toBe(
      'module_info',
    );
    expect(documentDomain('chapter-18-weekly-breakdown/index.md', 'Weekly Breakdown')).toBe(
      'general',
    );
    expect(documentDomain('license.md', 'License')).toBe('general');
    expect(documentDomain('Glossary.rst', 'Glossary')).toBe('glossary');
  });

  it('tags chapters of numbered course modules as module_info, whatever their topic words', () => {
    expect(documentDomain('module-1-ros2/ros2-communication.md', 'ROS 2 Communication')).toBe(
      'module_info',
    );
    expect(documentDomain('course/unit_3/grasp-planning.md', 'Grasp Planning')).toBe('module_info');
    expect(documentDomain('docs/lesson-7/wrap.mdx', 'Wrapping up')).toBe('module_info');
    expect(documentDomain('book/week-notes.md', 'Module 4: Manipulation')).toBe('module_info');
    expect(documentDomain('modules/overview.md', 'Overview')).toBe('module_info');
    // A stronger domain of the file still wins: module folders hold hardware and capstone pages too.
    expect(documentDomain('module-5-kit/hardware-list.md', 'Kit')).toBe('hardware');
    expect(documentDomain('module-6/capstone-brief.md', 'Brief')).toBe('capstone');
    expect(documentDomain('notes/modular-design.md', 'Modular design')).toBe('general');
    const chapter = chunk('module-2-sensing/cameras.md', 'Cameras', ['Rolling shutter']);
    expect(tagDomain(chapter)).toBe('module_info');
  });

  it('lets strong heading cues override the file domain per chunk', () => {
    const ros = 'chapter-02-ros2-fundamentals/index.md';
    expect(tagDomain(chunk(ros, 'ROS 2 Fundamentals', ['What is ROS 2?']))).toBe('glossary');
    expect(tagDomain(chunk(ros, 'ROS 2 Fundamentals', ['Core Concepts', 'Nodes']))).toBe(
      'module_info',
    );
    expect(tagDomain(chunk('weeks.md', 'Weekly Plan', ['Week 13: Capstone Integration']))).toBe(
      'capstone',
    );
  });

  it('uses content cues only to refine otherwise general files', () => {
    const specs = 'A GPU with 24 GB VRAM, 64 GB RAM and a fast SSD at $2 per hour.';
    expect(tagDomain(chunk('notes.md', 'Notes', ['Setup'], specs))).toBe('hardware');
    expect(tagDomain(chunk('notes.md', 'Notes', ['Setup'], 'One GPU is enough.'))).toBe('general');
    expect(tagDomain(chunk('isaac-sim.md', 'Isaac Sim', ['Rendering'], specs))).toBe('module_info');
  });
});
