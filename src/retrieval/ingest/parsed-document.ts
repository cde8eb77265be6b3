/** One heading section of a parsed document: the headings above it and its body text. */
export interface Section {
  /** Headings from the document title down to this section's own heading. */
  headingPath: string[];
  /** Body text under the heading, up to the next heading of any level. */
  text: string;
  /** 1-based line of the heading (or of the first body line) in the source file. */
  line: number;
}

/** A source file split into its title and heading sections, whatever its format. */
export interface ParsedDocument {
  title: string;
  sections: Section[];
  /** The frontmatter's `slug` and `url`: where the document is published (see `sourceUrl`). */
  link?: { slug?: string; url?: string };
}
