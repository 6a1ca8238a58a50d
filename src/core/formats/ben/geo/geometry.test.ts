import { describe, expect, it } from 'vitest';
import { formatErrorOf } from '../../../../../test/helpers/errors.js';
import { parseGraphJson } from '../stats/graph.js';
import { GEO_LIMITS, geometryAttribute, precinctsFromFeatures, precinctsFromNodes } from './geometry.js';
import { countyGeoGraph } from './testing.js';

const graph = (g: object) => parseGraphJson(JSON.stringify(g));
/** A GeoJSON Polygon of one ring through the points given, as given (a test may break them). */
const polygon = (...ring: unknown[]) => ({ type: 'Polygon', coordinates: [ring] });

describe('precinct geometry from GeoJSON', () => {
  it('finds the geometry attribute, splits polygons into exterior and hole rings, drops the closing point', () => {
    const g = graph(countyGeoGraph());
    expect(geometryAttribute(g)).toBe('geometry');
    const p = precinctsFromNodes(g, 'geometry');
    // A: exterior + hole; B: one; C: two exteriors (MultiPolygon); D: one
    expect(Array.from(p.ringNode)).toEqual([0, 0, 1, 2, 2, 3]);
    expect(Array.from(p.ringHole)).toEqual([0, 1, 0, 0, 0, 0]);
    expect(Array.from(p.ringStart)).toEqual([0, 4, 8, 12, 16, 20, 25]);
    expect(Array.from(p.xy.subarray(8, 16))).toEqual([1, 1, 1, 3, 3, 3, 3, 1]);
    expect(p.missing).toBe(0);
  });

  it('finds a geometry under another name, and none where no node has one', () => {
    expect(geometryAttribute(graph({ nodes: [{ id: 0, shape: polygon([0, 0], [1, 0], [0, 1]) }] }))).toBe('shape');
    expect(geometryAttribute(graph({ nodes: [{ id: 0, geometry: { type: 'Point', coordinates: [0, 0] } }] }))).toBeUndefined();
  });

  it('counts null geometries as missing', () => {
    const p = precinctsFromNodes(graph({ nodes: [{ geometry: null }, { geometry: polygon([0, 0], [1, 0], [0, 1]) }] }), 'geometry');
    expect(p.missing).toBe(1);
    expect(Array.from(p.ringNode)).toEqual([1]);
  });

  it('refuses malformed shapes with the field that broke', () => {
    const bad = (geometry: unknown) => formatErrorOf(() => precinctsFromNodes(graph({ nodes: [{ id: 0, geometry }] }), 'geometry'));
    expect(bad(polygon([0, 0], [1, 'x'], [0, 1]))).toMatchObject({ code: 'corrupt', field: 'graph nodes[0].geometry.coordinates[0][1]' });
    expect(bad(polygon([0, 0], [1, 0], [0, 0]))).toMatchObject({ code: 'corrupt', field: 'graph nodes[0].geometry.coordinates[0]' });
    expect(bad({ type: 'MultiPolygon', coordinates: [polygon([0, 0], [1, 0], [0, 1]).coordinates, 7] })).toMatchObject({
      field: 'graph nodes[0].geometry.coordinates[1]',
    });
    expect(bad({ type: 'Point', coordinates: [0, 0] })).toMatchObject({ field: 'graph nodes[0].geometry' });
    expect(bad(polygon([0, 0], [1, 0], [Infinity, 1])).code).toBe('corrupt');
  });

  it('refuses a node with more rings than the cap', () => {
    const tri = polygon([0, 0], [1, 0], [0, 1]).coordinates;
    const many = Array.from({ length: GEO_LIMITS.ringsPerNode + 1 }, () => tri);
    expect(formatErrorOf(() => precinctsFromNodes(graph({ nodes: [{ geometry: { type: 'MultiPolygon', coordinates: many } }] }), 'geometry'))).toMatchObject({
      code: 'limit',
      field: 'graph nodes[0].geometry',
    });
  });

  it('matches a FeatureCollection by an id property (any feature order), or by order', () => {
    const county = countyGeoGraph();
    const g = graph({ ...county, nodes: county.nodes.map(({ geometry: _g, ...n }) => n) });
    const features = county.nodes.map((n) => ({ type: 'Feature', properties: { NAME: n.NAME }, geometry: n.geometry }));
    const byName = precinctsFromFeatures(JSON.stringify({ type: 'FeatureCollection', features: [...features].reverse() }), g, 'NAME');
    const direct = precinctsFromNodes(graph(county), 'geometry');
    expect(Array.from(byName.ringNode)).toEqual(Array.from(direct.ringNode));
    expect(Array.from(byName.xy)).toEqual(Array.from(direct.xy));
    const byOrder = precinctsFromFeatures(JSON.stringify({ type: 'FeatureCollection', features }), g, undefined);
    expect(Array.from(byOrder.xy)).toEqual(Array.from(direct.xy));
    // One feature unmatched: its node has no shape
    const partial = precinctsFromFeatures(JSON.stringify({ type: 'FeatureCollection', features: features.slice(1) }), g, 'NAME');
    expect(partial.missing).toBe(1);
    expect(formatErrorOf(() => precinctsFromFeatures(JSON.stringify({ type: 'FeatureCollection', features: features.slice(1) }), g, undefined))).toMatchObject({
      code: 'bad-input',
      field: 'geojson features',
    });
    expect(formatErrorOf(() => precinctsFromFeatures('{"type":"Feature"}', g, undefined)).field).toBe('geojson');
  });
});
