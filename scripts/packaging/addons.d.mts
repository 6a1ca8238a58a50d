export interface AddonPackage {
  name: string;
  version: string;
  integrity: string;
}
export const ADDON_CACHE: string;
export function fetchAddons(addons: AddonPackage[], cacheDir?: string): AddonPackage[];
export function addonBinary(addon: AddonPackage, cacheDir?: string): { file: string; bytes: Buffer };
export function tarEntries(tar: Buffer): { name: string; bytes: Buffer }[];
