import { SOURCE_URL_PLACEHOLDER } from '../config/index.js';

/** What a document's frontmatter may say about its published address. */
export interface SourceLink {
  /** Docusaurus-style `slug`: "/intro" from where the template puts `{path}`, "setup" beside the file. */
  slug?: string;
  /** The page's full address, or a path from the site root ("/docs/intro"). */
  url?: string;
}

/** A document path as its page path: no extension, no trailing `index`, POSIX separators. */
function pagePath(source: string): string {
  return source
    .replace(/\\/g, '/')
    .replace(/\.(?:md|mdx|markdown|rst|txt)$/i, '')
    .replace(/(?:^|\/)index$/i, '')
    .replace(/^\/+/, '');
}

const encodePath = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');

/** The anchor a static-site generator gives a heading: lower case, words joined by hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The published address of a document (rag spec §3's Sources footer shows it): the template with
 * `{path}` replaced by the document's path without its extension and without a trailing `index`
 * (`chapter-02/index.md` → `chapter-02`). A frontmatter `url` wins (a full address, or a path
 * from the site's root); a frontmatter `slug` replaces the path (from where the template puts
 * `{path}` when it starts with "/", else beside the file). `heading` adds the section's anchor.
 *
 * @example
 * sourceUrl('https://book.example.org/{path}', 'module-1/ros2-basics.md', {}, 'Topics');
 * // 'https://book.example.org/module-1/ros2-basics#topics'
 */
export function sourceUrl(
  template: string,
  source: string,
  link: SourceLink = {},
  heading?: string,
): string {
  const anchor = heading ? `#${headingAnchor(heading)}` : '';
  const base = new URL(template.replaceAll(SOURCE_URL_PLACEHOLDER, ''));
  if (link.url) {
    try {
      const url = new URL(link.url, base.origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.href}${anchor}`;
    } catch {
      // A malformed frontmatter url is ignored: the template still gives a working address.
    }
  }
  let path = pagePath(source);
  if (link.slug) {
    const slug = link.slug.trim();
    const file = source.replace(/\\/g, '/');
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    path = slug.startsWith('/') ? slug.slice(1) : [folder, slug].filter(Boolean).join('/');
  }
  return `${template.replaceAll(SOURCE_URL_PLACEHOLDER, encodePath(path))}${anchor}`;
}
