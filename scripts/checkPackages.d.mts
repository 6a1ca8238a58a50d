export interface Extension {
  name: string;
  publisher: string;
  version: string;
}
export function checkVsix(file: string, target: string, expect: Extension, listed?: string[]): { problems: string[]; addon: string | null };
export function extensionOf(root: string): Extension;
export function shown(path: string): string;
export function checkAll(o: { dir: string; root?: string; targets?: string[]; listed?: string[] }): Promise<string[]>;
