import { describe, expect, it } from 'vitest';
import { DistrictsMemory } from './districtsMemory.js';

/** Workspace state as a Map, the way VS Code's Memento keeps it. */
function memento() {
  const m = new Map<string, unknown>();
  return { map: m, get: <T>(k: string) => m.get(k) as T | undefined, update: async (k: string, v: unknown) => void m.set(k, v) };
}

const ENSEMBLE = 'file:///w/chain.ben';

describe('DistrictsMemory', () => {
  it('passes other panels through untouched', async () => {
    const d = new DistrictsMemory(memento());
    expect(await d.request(ENSEMBLE, 'overview', { sample: 3, graph: '/etc/passwd' })).toEqual({ sample: 3, graph: '/etc/passwd' });
  });

  it('the plan and flip panels get the picked graph (for its precinct shapes), never one the webview names', async () => {
    const d = new DistrictsMemory(memento());
    expect(await d.request(ENSEMBLE, 'plan', { sample: 3, graph: '/etc/passwd' })).toEqual({ sample: 3 });
    await d.pickGraph(ENSEMBLE, async () => '/w/G.json');
    expect(await d.request(ENSEMBLE, 'plan', { sample: 3, graph: '/etc/passwd' })).toEqual({ sample: 3, graph: '/w/G.json' });
    expect(await d.request(ENSEMBLE, 'flips', {})).toEqual({ graph: '/w/G.json' });
  });

  it('the picked FeatureCollection and its id property, kept per ensemble; a new pick matches by order again', async () => {
    const state = memento();
    const d = new DistrictsMemory(state);
    expect(await d.request(ENSEMBLE, 'plan', { shapes: '/etc/passwd' })).toEqual({});
    expect(await d.pickShapes(ENSEMBLE, async () => undefined)).toEqual({ picked: false });
    expect(await d.pickShapes(ENSEMBLE, async () => '/w/p.geojson')).toEqual({ picked: true });
    expect(await d.request(ENSEMBLE, 'plan', { sample: 2, shapes: '/etc/passwd' })).toEqual({ sample: 2, shapes: '/w/p.geojson' });
    await d.request(ENSEMBLE, 'plan', { shapesId: 'GEOID' });
    // a reopened window: the file and the property; another ensemble: neither
    expect(await new DistrictsMemory(state).request(ENSEMBLE, 'flips', {})).toEqual({ shapes: '/w/p.geojson', shapesId: 'GEOID' });
    expect(await d.request('file:///w/other.ben', 'plan', {})).toEqual({});
    await d.pickShapes(ENSEMBLE, async () => '/w/q.geojson');
    expect(await d.request(ENSEMBLE, 'plan', {})).toEqual({ shapes: '/w/q.geojson' });
  });

  it('never lets the webview name the graph: only a picked file reaches the engine, remembered per ensemble', async () => {
    const state = memento();
    const d = new DistrictsMemory(state);
    expect(await d.request(ENSEMBLE, 'districts', { sample: 1, graph: '/etc/passwd' })).toEqual({ sample: 1 });
    expect(await d.pickGraph(ENSEMBLE, async () => undefined)).toEqual({ picked: false });
    expect(await d.pickGraph(ENSEMBLE, async () => '/w/G.json')).toEqual({ picked: true });
    expect(await d.request(ENSEMBLE, 'districts', { sample: 2, graph: '/etc/passwd' })).toEqual({ sample: 2, graph: '/w/G.json' });
    // another ensemble has no graph yet; a new memory over the same state (a reopened window) still has it
    expect(await d.request('file:///w/other.ben', 'districts', { sample: 1 })).toEqual({ sample: 1 });
    expect(await new DistrictsMemory(state).request(ENSEMBLE, 'districts', {})).toEqual({ graph: '/w/G.json' });
  });

  it('remembers the attribute choice per graph and fills it in when the webview sends none', async () => {
    const state = memento();
    const d = new DistrictsMemory(state);
    await d.pickGraph(ENSEMBLE, async () => '/w/G.json');
    const choice = '{"population":"TOTPOP","elections":[["G20PRESD","G20PRESR"]]}';
    await d.request(ENSEMBLE, 'districts', { sample: 1, attributes: choice });
    expect(await d.request(ENSEMBLE, 'districts', { sample: 5 })).toEqual({ sample: 5, graph: '/w/G.json', attributes: choice });
    // the same graph picked for another ensemble gets the same choice; an empty choice (after a new pick) is not stored
    await d.pickGraph('file:///w/other.ben', async () => '/w/G.json');
    expect(await d.request('file:///w/other.ben', 'districts', { attributes: '' })).toEqual({ graph: '/w/G.json', attributes: choice });
    // a bundle's own graph: remembered under the bundle
    await d.request('file:///w/b.bendl', 'districts', { attributes: '{"elections":[]}' });
    expect(state.map.get('binlens.districts.choice:file:///w/b.bendl#graph.json')).toBe('{"elections":[]}');
    expect(await d.request('file:///w/b.bendl', 'districts', {})).toEqual({ attributes: '{"elections":[]}' });
  });

  it('the ensemble panel: the same graph and choice as the districts; a reference file only the one picked, only when asked for', async () => {
    const state = memento();
    const d = new DistrictsMemory(state);
    await d.pickGraph(ENSEMBLE, async () => '/w/G.json');
    const choice = '{"population":"TOTPOP","elections":[]}';
    await d.request(ENSEMBLE, 'districts', { attributes: choice });
    // nothing picked: a reference file the webview names is dropped
    expect(await d.request(ENSEMBLE, 'ensemble', { run: 1, reference: 'file', referenceFile: '/etc/passwd', graph: '/etc/shadow' })).toEqual({
      run: 1,
      reference: 'file',
      graph: '/w/G.json',
      attributes: choice,
    });
    expect(await d.pickReference(ENSEMBLE, async () => undefined)).toEqual({ picked: false });
    expect(await d.pickReference(ENSEMBLE, async () => '/w/enacted.csv')).toEqual({ picked: true });
    expect(await d.request(ENSEMBLE, 'ensemble', { reference: 'file', referenceFile: '/etc/passwd' })).toEqual({
      reference: 'file',
      referenceFile: '/w/enacted.csv',
      graph: '/w/G.json',
      attributes: choice,
    });
    // another kind of reference: no file goes to the engine
    expect(await d.request(ENSEMBLE, 'ensemble', { reference: 'sample:3' })).toEqual({ reference: 'sample:3', graph: '/w/G.json', attributes: choice });
  });
});
