import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { createRanker } from './ranker.js';
import {
  asksAboutReleases,
  isReleaseNotes,
  RELEASE_NOTES_FACTOR,
  releaseNotes,
  releasePagesNamed,
} from './release-notes.js';
import { analyze } from './tokenizer.js';

describe('release pages', () => {
  it('are recognised by a folder, a file name or a title', () => {
    const page = (source: string, title = 'Page') => isReleaseNotes({ source, title });
    expect(page('docs/releases/Marble-Moth.rst', 'Marble Moth (marble)')).toBe(true);
    expect(page('CHANGELOG.md')).toBe(true);
    expect(page('docs/release-notes/2.1.md')).toBe(true);
    expect(page('docs/whats-new.md')).toBe(true);
    expect(page('docs/release-3.0.md')).toBe(true);
    expect(page('docs/notes.md', "What's new in version 4")).toBe(true);
    expect(page('docs/notes.md', 'Release Notes')).toBe(true);
    // How to make a release is a guide, not a release's notes.
    expect(page('docs/Releasing/Release-Track.rst', 'Release Track')).toBe(false);
    expect(page('docs/concepts/about-queues.md', 'Queues')).toBe(false);
  });

  it('answer questions about a release, a version or a change', () => {
    expect(asksAboutReleases('What changed in the latest release?')).toBe(true);
    expect(asksAboutReleases('Which version deprecated the old queue API?')).toBe(true);
    expect(asksAboutReleases("What's new in 2.1?")).toBe(true);
    expect(asksAboutReleases('What is the default queue depth?')).toBe(false);
    expect(asksAboutReleases('How do I open a new terminal?')).toBe(false);
  });

  it('keep a share of their score; a question naming one by its title finds it whole', () => {
    const concept = prepareDocument('concepts/queues.md', '# Queues\n\nA queue holds messages.\n');
    const notes = prepareDocument(
      'releases/marble-moth.md',
      '# Marble Moth\n\n## Queues\n\nThe default queue depth changed.\n',
    );
    const chunks = [...concept.chunks, ...notes.chunks];
    const found = releaseNotes(chunks);
    expect([...(found?.factors ?? [])]).toEqual([1, RELEASE_NOTES_FACTOR]);
    expect(releasePagesNamed(found!, analyze('What is in Marble Moth?'))).toEqual([1]);
    expect(releaseNotes(concept.chunks)).toBeUndefined();
  });
});

describe('ranking with release pages', () => {
  // The release note says "default queue depth" as the question does; the concept page says it
  // once with the words of the question spread over two sentences.
  const chunks = [
    ...prepareDocument(
      'concepts/queues.md',
      '# Queues\n\nA queue holds the messages a subscriber has not read yet. Its depth is how many.\n\nBy default the depth is ten.\n',
    ).chunks,
    ...prepareDocument(
      'releases/marble-moth.md',
      '# Marble Moth\n\n## Queue changes\n\nThe default queue depth of subscribers changed from ten to one.\n',
    ).chunks,
  ];
  const first = (query: string, releaseNotes = true) =>
    createRanker(chunks, { techniques: { wordnet: false, releaseNotes } }).rank(query, {
      limit: 1,
    })[0]?.chunk.source;

  it('answer a question about the subject from the page that explains it', () => {
    expect(first('What is the default queue depth of a subscriber?', false)).toBe(
      'releases/marble-moth.md',
    );
    expect(first('What is the default queue depth of a subscriber?')).toBe('concepts/queues.md');
  });

  it('still answer a question about a change or a named release', () => {
    expect(
      first('How did the default queue depth of subscribers change in the latest release?'),
    ).toBe('releases/marble-moth.md');
    expect(first('What is the default queue depth of a subscriber in Marble Moth?')).toBe(
      'releases/marble-moth.md',
    );
  });
});
