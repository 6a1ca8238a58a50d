import type { ByteSink } from '../core/model.js';

/** stdout as a sink that waits for the pipe to drain, so `binlens cat BIG | head` stays bounded. */
export const stdoutSink: ByteSink = {
  write(chunk: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      if (process.stdout.write(chunk, (err) => err && reject(err))) resolve();
      else process.stdout.once('drain', resolve);
    });
  },
};

/** A closed pipe (`| head`) ends the program quietly, as Unix tools do. */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
