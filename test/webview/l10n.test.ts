import * as l10n from '@vscode/l10n';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, useBundle } from '../../webview/l10n.js';

/** The webview's translation lookup: `useBundle` (what init does with the host's bundle) and `l10n.t`. */
describe('webview l10n', () => {
  afterEach(() => useBundle(undefined));

  it('shows the English source text when there is no bundle (English display language)', () => {
    useBundle(undefined);
    expect(l10n.t('Verify')).toBe('Verify');
    expect(l10n.t('{0} rows', 12)).toBe('12 rows');
  });

  it('looks the English text up in the bundle and fills the placeholders of the translation', () => {
    useBundle({ Verify: 'Prüfen', '{0}: {1} bytes at {2} ({3})': '{0}: {1} Bytes bei {2} ({3})', '{1} of {0}': '{0} → {1}' });
    expect(l10n.t('Verify')).toBe('Prüfen');
    expect(l10n.t('{0}: {1} bytes at {2} ({3})', 'header', 16, '0x10', 16)).toBe('header: 16 Bytes bei 0x10 (16)');
    // A translation may reorder the placeholders.
    expect(l10n.t('{1} of {0}', 'a', 'b')).toBe('a → b');
  });

  it('falls back to English for a key the bundle does not have, or an empty translation', () => {
    useBundle({ Verify: 'Prüfen', Cancel: '' });
    expect(l10n.t('Convert…')).toBe('Convert…');
    expect(l10n.t('≥ {0} rows so far', 5)).toBe('≥ 5 rows so far');
    expect(l10n.t('Cancel')).toBe('Cancel');
  });

  it('formats zero, false and file strings as arguments, once: a `{1}` inside an argument stays as it is', () => {
    useBundle({});
    expect(l10n.t('{0} B', 0)).toBe('0 B');
    expect(l10n.t('{0}: no byte range', '{1} <b>x</b>')).toBe('{1} <b>x</b>: no byte range');
    expect(l10n.t('{0} and {1}', false, '{0}')).toBe('false and {0}');
    // A placeholder with no argument is left visible rather than dropped.
    expect(l10n.t('{0}, {1} transitions not drawn', 'state 1')).toBe('state 1, {1} transitions not drawn');
    // Without arguments braces are text.
    expect(l10n.t('{x}')).toBe('{x}');
  });

  it('keys strings with a translator comment by message and comment, as l10n-dev exports them', () => {
    const comment = ['{0} is the name of a search, e.g. "prefix": the label of its results table'];
    useBundle({ [`{0} results/${comment[0]}`]: 'Treffer von {0}', '{0} results': '{0} Treffer' });
    expect(l10n.t({ message: '{0} results', args: ['prefix'], comment })).toBe('Treffer von prefix');
    expect(l10n.t('{0} results', 3)).toBe('3 Treffer');
    // The exported English bundle holds { message, comment } entries: those read as the English message.
    useBundle({ [`{0} results/${comment[0]}`]: { message: '{0} results', comment } });
    expect(l10n.t({ message: '{0} results', args: ['prefix'], comment })).toBe('prefix results');
  });

  it('goes back to English when a reload sends no bundle', () => {
    useBundle({ Verify: 'Prüfen' });
    expect(l10n.t('Verify')).toBe('Prüfen');
    useBundle(undefined);
    expect(l10n.t('Verify')).toBe('Verify');
  });

  it('groups digits for the page language, and in English without a page', () => {
    expect(formatCount(5_000_000)).toBe('5,000,000');
  });
});
