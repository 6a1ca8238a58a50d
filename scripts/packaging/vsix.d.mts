export function vsce(args: string[], cwd: string): Promise<string>;
export function shippedFiles(root: string): Promise<string[]>;
export function packageTarget(o: { root: string; files: string[]; target: string; addon: Uint8Array | null; outFile: string; stageDir: string }): Promise<void>;
