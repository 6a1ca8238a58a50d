import { describe, expect, it } from 'vitest';
import { validateViewRequest } from '../protocol/validate.js';
import { exportBytes, exportFileName } from './exportFile.js';

describe("a view's export", () => {
  it("a suggested name is only a name: no folder, no odd characters, the kind's extension once", () => {
    expect(exportFileName('ensemble-cut_edges', 'svg')).toBe('ensemble-cut_edges.svg');
    expect(exportFileName('../../etc/passwd', 'csv')).toBe('etc-passwd.csv');
    expect(exportFileName('C:\\Users\\x\\plot.png', 'png')).toBe('C-Users-x-plot.png');
    expect(exportFileName('stats.jsonl', 'jsonl')).toBe('stats.jsonl');
    expect(exportFileName('e0.shares', 'svg')).toBe('e0.shares.svg');
    expect(exportFileName('...', 'svg')).toBe('export.svg');
  });

  it('PNG arrives as base64, text as UTF-8', () => {
    expect([...exportBytes('png', 'iVBORw0KGgo=')]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([...exportBytes('csv', 'é,1')]).toEqual([0xc3, 0xa9, 0x2c, 0x31]);
  });

  it('the host checks the request: a known kind, a short name, data of bounded size', () => {
    expect(validateViewRequest('saveExport', { kind: 'svg', name: 'x', data: '<svg/>' })).toBeUndefined();
    expect(validateViewRequest('saveExport', { kind: 'exe', name: 'x', data: '' })).toMatch(/kind/);
    expect(validateViewRequest('saveExport', { kind: 'svg', name: 'x'.repeat(300), data: '' })).toMatch(/name/);
    expect(validateViewRequest('saveExport', { kind: 'svg', name: 'x', data: 7 })).toMatch(/data/);
    expect(validateViewRequest('pickReference', {})).toBeUndefined();
  });
});
