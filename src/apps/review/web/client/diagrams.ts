/** Mermaid diagrams: the library is loaded from this server on first use, and draws one diagram at a time. */
import { h } from './dom.ts';

interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  render(id: string, source: string): Promise<{ svg: string }>;
}

let mermaidLoaded: Promise<Mermaid> | null = null;
function loadMermaid(): Promise<Mermaid> {
  mermaidLoaded ??= new Promise((resolve, reject) => {
    const script = h('script', { src: '/assets/mermaid.min.js' });
    script.onload = () => {
      const mermaid = (window as unknown as { mermaid: Mermaid }).mermaid;
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral' });
      resolve(mermaid);
    };
    script.onerror = () => reject(new Error('the diagram library (/assets/mermaid.min.js) could not be loaded'));
    document.head.append(script);
  });
  return mermaidLoaded;
}

let diagramCount = 0;
let drawing: Promise<void> = Promise.resolve();
/** Drawn SVG by mermaid source: a section redrawn with the same diagram shows it at once, without a flicker. */
const drawnSvg = new Map<string, string>();

async function drawPending(root: Element): Promise<void> {
  const pending = [...root.querySelectorAll<HTMLElement>('.diagram:not([data-state])')];
  if (pending.length === 0) return;
  let mermaid: Mermaid;
  try {
    mermaid = await loadMermaid();
  } catch (error) {
    for (const el of pending) {
      el.dataset.state = 'error';
      el.prepend(h('p', { class: 'diagram-error' }, `Not drawn: ${(error as Error).message}. Its source:`));
    }
    return;
  }
  for (const el of pending) {
    if (!el.isConnected) continue;
    el.dataset.state = 'drawing';
    const source = el.querySelector('.diagram-source')?.textContent ?? '';
    try {
      const svg = drawnSvg.get(source) ?? (await mermaid.render(`diagram-${++diagramCount}`, source)).svg;
      drawnSvg.set(source, svg);
      el.prepend(h('div', { class: 'diagram-svg', html: svg }));
      el.dataset.state = 'drawn';
    } catch (error) {
      el.dataset.state = 'error';
      el.prepend(h('p', { class: 'diagram-error' }, `This diagram could not be drawn: ${(error as Error)?.message ?? error}. Its source:`));
    }
  }
}

/** Draws every diagram under `root` not drawn yet; one drawing pass at a time. */
export function drawDiagrams(root: Element): Promise<void> {
  drawing = drawing.then(() => drawPending(root));
  return drawing;
}

/** A mermaid source to be drawn (the same placeholder the server puts in rendered markdown). */
export const diagram = (source: string): HTMLDivElement => h('div', { class: 'diagram' }, h('pre', { class: 'diagram-source' }, source));
