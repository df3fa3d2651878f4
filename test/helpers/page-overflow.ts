/**
 * What makes a page scroll sideways: the page wider than the window, or any element that ends past
 * its right edge — except code blocks, drawings, what is folded away and the run list's header, which
 * are not laid out on screen or scroll on their own by design.
 */
import type { Page } from 'playwright-core';

export const overflowing = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    // Runs in the page; this project's type check has no DOM library.
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    const out: string[] = [];
    if (doc.documentElement.scrollWidth > width) out.push(`the page is ${doc.documentElement.scrollWidth}px wide`);
    for (const el of doc.querySelectorAll('main *')) {
      if (el.closest('pre, .diagram-svg, .chart-frame, svg, details:not([open]) > :not(summary), table.runs thead')) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} ends at ${Math.round(box.right)}px`);
    }
    return out.slice(0, 10);
  });
