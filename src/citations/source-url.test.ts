import { describe, expect, it } from 'vitest';
import { sourceUrlProblem } from '../config/index.js';
import { formatCitations, formatSourcesFooter } from './index.js';
import { headingAnchor, sourceUrl } from './source-url.js';

const SITE = 'https://robots.example.edu/course/{path}';

describe('sourceUrl', () => {
  it('drops the extension and a trailing index', () => {
    expect(sourceUrl(SITE, 'unit-3/grasping.mdx')).toBe(
      'https://robots.example.edu/course/unit-3/grasping',
    );
    expect(sourceUrl(SITE, 'unit-3/index.md')).toBe('https://robots.example.edu/course/unit-3');
    expect(sourceUrl(SITE, 'index.md')).toBe('https://robots.example.edu/course/');
    expect(sourceUrl('https://docs.example.org/{path}.html', 'guide/setup.rst')).toBe(
      'https://docs.example.org/guide/setup.html',
    );
  });

  it('encodes each path segment and adds the section anchor', () => {
    expect(sourceUrl(SITE, 'unit 3/grip & force.md', {}, 'Friction Cones (2D)')).toBe(
      'https://robots.example.edu/course/unit%203/grip%20%26%20force#friction-cones-2d',
    );
    expect(headingAnchor('Phase 1: Foundation')).toBe('phase-1-foundation');
  });

  it('lets frontmatter slug and url override the path', () => {
    // As in Docusaurus, an absolute slug starts at the docs root: where the template puts {path}.
    expect(sourceUrl(SITE, 'unit-3/grasping.md', { slug: '/grasp' })).toBe(
      'https://robots.example.edu/course/grasp',
    );
    expect(sourceUrl(SITE, 'unit-3/grasping.md', { slug: 'grip' })).toBe(
      'https://robots.example.edu/course/unit-3/grip',
    );
    expect(sourceUrl(SITE, 'a.md', { url: 'https://elsewhere.example.net/a' })).toBe(
      'https://elsewhere.example.net/a',
    );
    expect(sourceUrl(SITE, 'a.md', { url: '/pages/a' })).toBe('https://robots.example.edu/pages/a');
  });

  it('never links a hostile frontmatter url', () => {
    expect(sourceUrl(SITE, 'a.md', { url: 'javascript:alert(1)' })).toBe(
      'https://robots.example.edu/course/a',
    );
  });

  it('puts the URL in citations and the Sources footer', () => {
    const [citation] = formatCitations([
      {
        text: 'Grasps need friction.',
        source: 'unit-3/grasping.md',
        title: 'Grasping',
        section: 'Friction',
        score: 0.81,
        metadata: { url: 'https://robots.example.edu/course/unit-3/grasping#friction' },
      },
    ]);
    expect(citation?.url).toBe('https://robots.example.edu/course/unit-3/grasping#friction');
    expect(formatSourcesFooter(citation ? [citation] : [])).toContain(
      '[1] https://robots.example.edu/course/unit-3/grasping#friction (score: 0.81)',
    );
  });
});

describe('sourceUrlProblem (the setting is validated)', () => {
  it.each([
    ['https://robots.example.edu/{path}', undefined],
    ['https://robots.example.edu/', /must contain \{path\}/],
    ['robots.example.edu/{path}', /absolute URL/],
    ['ftp://robots.example.edu/{path}', /http or https/],
  ])('%s', (template, problem) => {
    const found = sourceUrlProblem(template);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});
