/**
 * Building the page: elements made with their attributes and children in one call, text always set as
 * text. The only HTML inserted (`html:`) is what the server rendered and sanitised (markdown, charts)
 * and the SVG that mermaid draws in strict mode.
 */

/** A child of an element: a node, text, or nothing (the null/false of a conditional part); arrays nest. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Attributes: class, html (trusted server HTML), dataset, on<event> handlers, anything else as an attribute. */
export type Attrs = Record<string, unknown> & {
  class?: string | null;
  html?: string;
  dataset?: Record<string, string>;
};

const flat = (children: readonly Child[]): (Node | string)[] => {
  const out: (Node | string)[] = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) out.push(...flat(child));
    else out.push(child instanceof Node ? child : String(child));
  }
  return out;
};

function setAttributes(el: Element, attrs: Attrs): void {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', String(value));
    else if (key === 'html') el.innerHTML = String(value);
    else if (key === 'dataset' && el instanceof HTMLElement) Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value as EventListener);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
}

/** Creates an HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  el.append(...flat(children));
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Creates an SVG element. */
export function svg(tag: string, attrs: Record<string, unknown> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG, tag) as SVGElement;
  setAttributes(el, attrs);
  el.append(...flat(children));
  return el;
}

/** Replaces an element's children, skipping the null/false of conditional parts. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren(...flat(children));
}

/** A block that scrolls on its own: reachable by keyboard (focusable), named for screen readers. */
export function scrollable<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs, ...children: Child[]): HTMLElementTagNameMap[K] {
  return h(tag, { tabindex: '0', ...attrs }, ...children);
}

/** Server-rendered and drawn blocks that may scroll (code in markdown, wide diagrams) join the tab order. */
export function focusableScrollers(root: Element): void {
  for (const el of root.querySelectorAll('.markdown pre, .diagram-svg')) {
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
  }
}

/** The message of anything thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A <details> whose body is fetched the first time it opens (into `into`, the details itself by default). */
export function onDemand(details: HTMLDetailsElement, load: () => Promise<Node>, into: Element = details): HTMLDetailsElement {
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    const body = h('div', { class: 'loading muted' }, 'Loading…');
    into.append(body);
    try {
      body.replaceWith(await load());
    } catch (error) {
      loaded = false;
      body.replaceWith(h('p', { class: 'error' }, messageOf(error)));
    }
  });
  return details;
}

/** `load`, never twice at once: a call while it runs makes it run once more afterwards (changes coalesce). */
export function oneAtATime(load: () => Promise<void>): () => Promise<void> {
  let loading = false;
  let again = false;
  const run = async (): Promise<void> => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      await load();
    } finally {
      loading = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  return run;
}

/** Redraws a section only when its data changed, keeping open whatever the reader had opened. */
export function renderIfChanged<T>(memory: Map<string, string>, key: string, el: HTMLElement, data: T, render: (el: HTMLElement, data: T) => void): void {
  const text = JSON.stringify(data);
  if (memory.get(key) === text) return;
  memory.set(key, text);
  const keyOf = (d: HTMLDetailsElement) => d.dataset.key ?? '';
  const open = new Set([...el.querySelectorAll<HTMLDetailsElement>('details[open][data-key]')].map(keyOf));
  const closed = new Set([...el.querySelectorAll<HTMLDetailsElement>('details:not([open])[data-key]')].map(keyOf));
  render(el, data);
  for (const d of el.querySelectorAll<HTMLDetailsElement>('details[data-key]')) {
    if (open.has(keyOf(d))) d.open = true;
    else if (closed.has(keyOf(d))) d.open = false;
  }
}
