/**
 * The parts of the `vscode` API that verifyCommand.ts and editorProvider.ts's BinlensDocument use,
 * for unit tests outside VS Code (`vi.mock('vscode', () => import('./vscodeFake.testkit.js'))`):
 * files through node:fs, a progress that is never cancelled, messages and commands that do nothing.
 */
import { readdir, stat } from 'node:fs/promises';

export const FileType = { File: 1, Directory: 2 } as const;
export const ProgressLocation = { Notification: 15 } as const;
export const DiagnosticSeverity = { Error: 0, Warning: 1 } as const;

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    const segments = [...base.path.split('/'), ...parts.flatMap((p) => p.split('/'))];
    const out: string[] = [];
    for (const s of segments) s === '..' ? out.pop() : out.push(s);
    return new Uri(base.scheme, out.join('/'));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

export class Diagnostic {
  source?: string;
  code?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}

export class RelativePattern {
  constructor(
    readonly base: Uri,
    readonly pattern: string,
  ) {}
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (listener: (e: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

const noEvent = () => ({ dispose: () => undefined });

export const workspace = {
  fs: {
    async stat(uri: Uri) {
      const s = await stat(uri.fsPath);
      return { type: s.isDirectory() ? FileType.Directory : FileType.File, size: s.size, mtime: s.mtimeMs };
    },
    async readDirectory(uri: Uri) {
      return (await readdir(uri.fsPath, { withFileTypes: true })).map((d) => [d.name, d.isDirectory() ? FileType.Directory : FileType.File]);
    },
  },
  asRelativePath: (uri: Uri) => uri.path,
  createFileSystemWatcher: () => ({ onDidChange: noEvent, onDidCreate: noEvent, dispose: () => undefined }),
};

export const window = {
  withProgress<R>(_options: unknown, task: (progress: { report(value: unknown): void }, token: unknown) => Promise<R>): Promise<R> {
    return task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: noEvent });
  },
  showErrorMessage: () => Promise.resolve(undefined),
  showInformationMessage: () => Promise.resolve(undefined),
};

export const commands = { executeCommand: () => Promise.resolve(undefined) };

export const l10n = {
  t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])),
};
