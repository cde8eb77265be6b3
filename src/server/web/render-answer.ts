import { h } from './dom.js';
import { parseAnswer, type Inline } from './parse-answer.js';

function inline(run: Inline, cited: (n: number) => boolean): Node {
  switch (run.kind) {
    case 'cite':
      // A marker with no passage behind it (reloaded history) stays plain text.
      return cited(run.n)
        ? h(
            'button',
            {
              type: 'button',
              class: 'cite',
              'data-cite': String(run.n),
              title: `Open source ${run.n}`,
            },
            `[${run.n}]`,
          )
        : document.createTextNode(`[${run.n}]`);
    case 'strong':
      return h('strong', {}, run.text);
    case 'em':
      return h('em', {}, run.text);
    case 'code':
      return h('code', {}, run.text);
    default:
      return document.createTextNode(run.text);
  }
}

/**
 * Renders an answer's text as DOM: paragraphs, lists and `[n]` buttons (for the citations the
 * page holds) that open the cited passage.
 *
 * @example
 * body.replaceChildren(renderAnswer(text, (n) => n <= citations.length));
 */
export function renderAnswer(text: string, cited: (n: number) => boolean): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const runs = (inlines: Inline[]) => inlines.map((run) => inline(run, cited));
  for (const block of parseAnswer(text)) {
    if (block.kind === 'rule') fragment.append(h('hr'));
    else if (block.kind === 'ul' || block.kind === 'ol') {
      fragment.append(h(block.kind, {}, ...block.items.map((item) => h('li', {}, ...runs(item)))));
    } else fragment.append(h(block.kind === 'p' ? 'p' : 'h3', {}, ...runs(block.inlines)));
  }
  return fragment;
}
