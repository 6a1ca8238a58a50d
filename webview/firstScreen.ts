/**
 * The moment a document's first screen is complete, as a performance mark of the page: the tree
 * and summary drawn and, when the first tab is a table, its rows on screen filled. The e2e scale
 * test reads it (issue 21: the fiftieth editor's first screen); locator polling from outside the
 * page adds up to half a second of its own. Nothing leaves the page.
 */
export const FIRST_SCREEN = 'binlens:first-screen';

let marked = false;

/** Marks the first screen once per page; later calls are the same screen again. */
export function markFirstScreen(): void {
  if (marked) return;
  marked = true;
  performance.mark(FIRST_SCREEN);
}
