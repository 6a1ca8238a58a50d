import { describe, expect, it } from 'vitest';
import { MAX_FINDINGS, type CheckDTO } from '../../protocol/protocol.js';
import { Findings } from './findings.js';

const fail = (name: string, offset?: number): CheckDTO => ({ name, status: 'fail', detail: `${name} differs`, offset });
const at = (offset: number, length: number) => ({ offset, length });

describe("a verify's findings in another document's tree", () => {
  const findings = new Findings([
    fail('frame 2 CRC', 100),
    { name: 'note', status: 'warn', detail: 'odd', offset: 10 },
    fail('file checksum'),
    fail('frame 1 CRC', 40),
  ]);

  it('marks a node whose range holds a failed offset, with what failed, and leaves the ranges before and after alone', () => {
    expect(findings.mark({}, at(40, 60), false)).toEqual({ mark: 'error', note: 'frame 1 CRC: frame 1 CRC differs' });
    expect(findings.mark({}, at(0, 40), false)).toEqual({});
    expect(findings.mark({}, at(101, 50), false)).toEqual({});
    expect(findings.mark({}, at(0, 200), false)).toEqual({ mark: 'error', note: 'frame 1 CRC: frame 1 CRC differs (2 failed checks)' });
  });

  it('marks the root with every failure, those without an offset too; a warning marks nothing', () => {
    expect(findings.mark({}, undefined, true)).toEqual({ mark: 'error', note: 'frame 2 CRC: frame 2 CRC differs (3 failed checks)' });
    expect(findings.mark({}, at(10, 1), false)).toEqual({});
    expect(findings.mark({}, undefined, false)).toEqual({});
  });

  it("keeps the family's own error and note, which say more, and replaces a warning", () => {
    expect(findings.mark({ mark: 'error', note: 'stored 0x1, computed 0x2' }, at(100, 4), false)).toEqual({ mark: 'error', note: 'stored 0x1, computed 0x2' });
    expect(findings.mark({ mark: 'warn', note: 'reserved frame' }, at(100, 4), false)).toMatchObject({ mark: 'error' });
  });

  it('a zero-length range (where reading stopped) holds its own offset', () => {
    expect(findings.mark({}, at(100, 0), false)).toMatchObject({ mark: 'error' });
  });

  it('keeps at most MAX_FINDINGS failures', () => {
    const many = new Findings(Array.from({ length: MAX_FINDINGS + 5 }, (_, i) => fail(`unit ${i}`, i)));
    expect(many.mark({}, undefined, true).note).toContain(`(${MAX_FINDINGS} failed checks)`);
  });
});
