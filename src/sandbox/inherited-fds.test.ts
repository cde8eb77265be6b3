import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inheritedDescriptors, stdioWithoutInherited } from './inherited-fds.js';

describe('stdioWithoutInherited', () => {
  it('puts /dev/null at each inherited descriptor past the ones given, and leaves the rest', () => {
    const { stdio, close } = stdioWithoutInherited(['ignore', 'pipe', 'pipe', 'pipe'], [3, 6]);
    try {
      expect(stdio).toHaveLength(7);
      expect(stdio.slice(0, 6)).toEqual(['ignore', 'pipe', 'pipe', 'pipe', 'ignore', 'ignore']);
      expect(typeof stdio[6]).toBe('number');
    } finally {
      close();
    }
  });

  it('changes nothing when nothing was inherited', () => {
    const { stdio } = stdioWithoutInherited(['ignore', 'pipe', 'pipe'], []);
    expect(stdio).toEqual(['ignore', 'pipe', 'pipe']);
  });

  it('finds no descriptor Node opened itself (all close-on-exec)', () => {
    const fd = openSync('/dev/null', 'r');
    try {
      expect(inheritedDescriptors()).not.toContain(fd);
    } finally {
      closeSync(fd);
    }
  });
});
