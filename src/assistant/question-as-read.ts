/**
 * The question with each word the router read as another replaced by it ("What is a ROS 2
 * topci?" → "What is a ROS 2 topic?"), whole words only, any case; the text itself when the
 * router read every word as typed. The router's reason already tells the user how it read the
 * question: the answer must be for that reading too, or a slip routed right finds nothing.
 *
 * @example
 * questionAsRead('What is a topci?', [['topci', 'topic']]); // 'What is a topic?'
 */
export function questionAsRead(
  text: string,
  readAs: ReadonlyArray<readonly [typed: string, meant: string]> | undefined,
): string {
  if (!readAs || readAs.length === 0) return text;
  const meantOf = new Map(readAs.map(([typed, meant]) => [typed.toLowerCase(), meant]));
  return text.replace(/[A-Za-z]+/g, (word) => {
    const meant = meantOf.get(word.toLowerCase());
    if (meant === undefined) return word;
    // "Topci" at the start of a sentence stays capitalised as "Topic".
    return word[0] !== word[0]!.toLowerCase() ? meant[0]!.toUpperCase() + meant.slice(1) : meant;
  });
}
