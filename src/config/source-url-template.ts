/** The placeholder a `sourceUrl` template must contain. */
export const SOURCE_URL_PLACEHOLDER = '{path}';

/**
 * Why a `sourceUrl` template is unusable, or undefined when it is fine: it must contain `{path}`
 * and, with a path filled in, be an absolute http(s) URL.
 *
 * @example
 * sourceUrlProblem('https://book.example.org/{path}'); // undefined
 * sourceUrlProblem('book.example.org'); // 'must contain {path} …'
 */
export function sourceUrlProblem(template: string): string | undefined {
  if (!template.includes(SOURCE_URL_PLACEHOLDER))
    return `must contain ${SOURCE_URL_PLACEHOLDER}, where each document's path goes (for example https://book.example.org/${SOURCE_URL_PLACEHOLDER})`;
  let url: URL;
  try {
    url = new URL(template.replaceAll(SOURCE_URL_PLACEHOLDER, 'page'));
  } catch {
    return `must be an absolute URL such as https://book.example.org/${SOURCE_URL_PLACEHOLDER}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  return undefined;
}
