import { writeDump } from '../../core/dump.js';
import { verifyDocument } from '../../core/ops/verify.js';
import type { CheckDTO, EngineOps, VerifySummaryDTO } from '../../protocol/protocol.js';
import type { Handlers } from '../../protocol/rpc.js';
import { checkDTO } from './dto.js';
import { Findings } from './findings.js';
import { topDTO, type Sessions } from './sessions.js';

/** Lists in the text dump are cut after this many entries, so a 2 GB stream still opens as text. */
const DUMP_LIST_LIMIT = 10000;

/** The reports on an open document: its checks streamed as they run, what a verify elsewhere found, and its annotated structure as text. */
export function reportHandlers(sessions: Sessions): Pick<Handlers<EngineOps>, 'verify' | 'findings' | 'dump'> {
  return {
    async verify({ doc }, { signal, emit }) {
      const s = sessions.get(doc);
      const counts = { pass: 0, fail: 0, warn: 0, info: 0 };
      const report = (c: CheckDTO) => {
        counts[c.status]++;
        emit({ check: c });
      };
      for await (const c of verifyDocument(s.doc, { signal, progress: (progress) => emit({ progress }) })) report(checkDTO(c));
      const summary: VerifySummaryDTO = { format: s.doc.format, ok: counts.fail === 0, unreadable: false, counts };
      return summary;
    },

    findings({ doc, checks }) {
      const s = sessions.get(doc);
      s.findings = new Findings(checks);
      return Promise.resolve(topDTO(s));
    },

    async dump({ doc, maxChildren }, { signal }) {
      const s = sessions.get(doc);
      let text = '';
      await writeDump(s.doc, { fileName: s.name, size: s.src.size, signal, maxChildren: maxChildren ?? DUMP_LIST_LIMIT }, (t) => {
        text += t;
      });
      return text;
    },
  };
}
