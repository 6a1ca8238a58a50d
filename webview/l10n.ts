import * as l10n from '@vscode/l10n';
import type { L10nBundle } from '../src/protocol/protocol.js';

/**
 * The webview's strings are translated the way the host's are: call sites write
 * `l10n.t('English text {0}', arg)` with `l10n` imported from `@vscode/l10n` (the only form
 * `npm run l10n` extracts), and the host sends `vscode.l10n.bundle` with the init message.
 * A missing bundle (English) or a missing key shows the English text; `{0}` placeholders are
 * filled either way. Strings from files are never passed to `l10n.t`: they are arguments.
 */
export function useBundle(bundle: L10nBundle | undefined): void {
  // A reload sends the bundle again; an empty one puts English back.
  l10n.config({ contents: (bundle ?? {}) as l10n.l10nJsonFormat });
}

/** Digits grouped for the page's language (the host sets `<html lang>` to VS Code's display language). */
export function formatCount(n: number): string {
  try {
    return n.toLocaleString(document.documentElement.lang || 'en');
  } catch {
    return n.toLocaleString('en');
  }
}

/** A byte size in the largest binary unit under 1024 of it. */
export function formatSize(n: number): string {
  if (n < 1024) return l10n.t('{0} B', n);
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < 3) ((v /= 1024), i++);
  const value = v.toFixed(v < 10 ? 2 : 1);
  // Unit symbols are strings too: French writes octets (Kio, Mio).
  return [l10n.t('{0} KiB', value), l10n.t('{0} MiB', value), l10n.t('{0} GiB', value), l10n.t('{0} TiB', value)][i]!;
}
