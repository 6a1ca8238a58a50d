import { convertersOf } from '../../core/dump.js';
import { describeDamage } from '../../core/integrity.js';
import { convertDocument } from '../../core/ops/read.js';
import { importFile } from '../../core/ops/import.js';
import { handlers, importersFor } from '../../core/registry.js';
import type { EngineOps } from '../../protocol/protocol.js';
import type { Handlers } from '../../protocol/rpc.js';
import { RpcError } from '../../protocol/rpc.js';
import type { Sessions } from './sessions.js';

/** The operations that write files: an open document converted, a file of another kind imported, and what each can become. */
export function outputHandlers(sessions: Sessions): Pick<Handlers<EngineOps>, 'convert' | 'importers' | 'formats' | 'import'> {
  const { platform } = sessions;
  return {
    async convert({ doc, converter, out, options, force, input, salvage }, { signal, emit }) {
      const s = sessions.get(doc);
      const c = convertersOf(s.doc, s.name, s.src.size).find((x) => x.id === converter);
      if (!c) throw new RpcError({ message: `no converter ${converter}`, code: 'invalid-request' });
      const outcome = await convertDocument(c, options, { salvage }, (run) => platform.writeOutput(out, { force, inputs: [input], kind: c.output }, run), {
        signal,
        progress: emit,
        openPath: platform.openPath,
      });
      return {
        summary: outcome.report.summary,
        warnings: outcome.report.warnings ?? [],
        damaged: outcome.damage.map(describeDamage),
        omitted: [...outcome.omissions],
      };
    },

    async importers({ name }) {
      return (await importersFor(name)).map(({ handler, importer }) => ({
        id: importer.id,
        label: importer.label,
        extension: importer.extension,
        output: importer.output,
        options: importer.options ?? [],
        format: handler.id,
      }));
    },

    async formats() {
      return handlers.map((h) => ({ id: h.id, label: h.label, extensions: [...h.extensions] }));
    },

    async import({ input, importer, out, options, force }, { signal, emit }) {
      const choice = (await importersFor(baseName(input))).find((c) => c.importer.id === importer);
      if (!choice) throw new RpcError({ message: `no importer ${importer} for ${input}`, code: 'invalid-request' });
      const report = await importFile(choice.importer, { input, out, force, options }, platform, { signal, progress: emit });
      return { summary: report.summary, warnings: report.warnings ?? [] };
    },
  };
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
