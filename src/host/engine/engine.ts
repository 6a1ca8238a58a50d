import { installNativeCodecs } from '../../core/codecs/native.js';
import type { EngineOps } from '../../protocol/protocol.js';
import type { Handlers } from '../../protocol/rpc.js';
import { diffHandlers } from './diffRuns.js';
import { documentHandlers } from './documentOps.js';
import { outputHandlers } from './outputOps.js';
import type { Platform } from './platform.js';
import { reportHandlers } from './reportOps.js';
import { Sessions } from './sessions.js';
import { viewHandlers } from './viewOps.js';

export type { Platform } from './platform.js';

/**
 * The open documents of one engine and the operations on them. Everything that touches file
 * content runs here, off the extension host's thread.
 */
export function engineHandlers(platform: Platform): Handlers<EngineOps> {
  if (platform.codecs) installNativeCodecs(platform.codecs);
  const sessions = new Sessions(platform);
  return {
    ...documentHandlers(sessions),
    ...viewHandlers(sessions),
    ...reportHandlers(sessions),
    ...outputHandlers(sessions),
    ...diffHandlers((doc) => {
      const s = sessions.get(doc);
      return { doc: s.doc, name: s.name, size: s.src.size };
    }, sessions.diffs),
  };
}
