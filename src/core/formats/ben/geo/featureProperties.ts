/** Features looked at for property names: enough to see every column a shapefile export writes. */
const SAMPLED = 64;

/**
 * The property names of a GeoJSON FeatureCollection's features, in first-seen order: what the
 * user may match features to nodes by. Only the first features are read (an export gives every
 * feature the same columns); a text that is no FeatureCollection has none (the shapes' reader names
 * what is wrong).
 */
export function featureProperties(fc: unknown): string[] {
  const features = isRecord(fc) && Array.isArray(fc.features) ? (fc.features as unknown[]) : [];
  const names = new Set<string>();
  for (const f of features.slice(0, SAMPLED)) if (isRecord(f) && isRecord(f.properties)) for (const k of Object.keys(f.properties)) names.add(k);
  return [...names];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
