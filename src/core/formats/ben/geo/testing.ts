/**
 * Graphs with geometry made for tests, samples and the bench: a grid of unit squares and a small
 * "county" with a hole, an island inside it and a MultiPolygon. NetworkX adjacency form, as
 * GerryChain's Graph.to_json(include_geometries_as_geojson=True) writes it.
 */

type Ring = [number, number][];
type Node = Record<string, unknown> & { id: number };

const square = (x: number, y: number, w = 1, h = 1): Ring => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
  [x, y],
];

/**
 * A w × h grid of unit squares, node i = x + w·y at (x, y)–(x + 1, y + 1), rook adjacency. Attributes:
 * TOTPOP = 100 + (i mod 7), G20PRESD = 10 + (i mod 5), G20PRESR = 12 − (i mod 3) (any numbers a test can sum by hand).
 */
export function gridGeoGraph(w: number, h: number, origin: [number, number] = [0, 0], cell = 1): { nodes: Node[]; adjacency: { id: number }[][] } {
  const nodes: Node[] = [];
  const adjacency: { id: number }[][] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = x + w * y;
      nodes.push({
        id: i,
        TOTPOP: 100 + (i % 7),
        G20PRESD: 10 + (i % 5),
        G20PRESR: 12 - (i % 3),
        geometry: { type: 'Polygon', coordinates: [square(origin[0] + x * cell, origin[1] + y * cell, cell, cell)] },
      });
      const nb: { id: number }[] = [];
      if (x > 0) nb.push({ id: i - 1 });
      if (x + 1 < w) nb.push({ id: i + 1 });
      if (y > 0) nb.push({ id: i - w });
      if (y + 1 < h) nb.push({ id: i + w });
      adjacency.push(nb);
    }
  }
  return { nodes, adjacency };
}

/**
 * Four precincts: A is the square (0,0)–(4,4) with a hole (1,1)–(3,3); B fills the hole; C is a
 * MultiPolygon, the rectangle (4,0)–(6,4) and the island (7,0)–(8,1); D is (0,4)–(6,5) along the top,
 * with a vertex at (4,4).
 * Areas: A 12, B 4, C 9, D 6.
 */
export function countyGeoGraph(): { nodes: Node[]; adjacency: { id: number }[][] } {
  const hole: Ring = [
    [1, 1],
    [1, 3],
    [3, 3],
    [3, 1],
    [1, 1],
  ];
  return {
    nodes: [
      { id: 0, NAME: 'A', TOTPOP: 120, geometry: { type: 'Polygon', coordinates: [square(0, 0, 4, 4), hole] } },
      { id: 1, NAME: 'B', TOTPOP: 40, geometry: { type: 'Polygon', coordinates: [square(1, 1, 2, 2)] } },
      { id: 2, NAME: 'C', TOTPOP: 90, geometry: { type: 'MultiPolygon', coordinates: [[square(4, 0, 2, 4)], [square(7, 0, 1, 1)]] } },
      // D's lower side passes through (4, 4), the corner of A and C, so it shares their segments exactly.
      {
        id: 3,
        NAME: 'D',
        TOTPOP: 60,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 4],
              [4, 4],
              [6, 4],
              [6, 5],
              [0, 5],
              [0, 4],
            ],
          ],
        },
      },
    ],
    adjacency: [[{ id: 1 }, { id: 2 }, { id: 3 }], [{ id: 0 }], [{ id: 0 }, { id: 3 }], [{ id: 0 }, { id: 2 }]],
  };
}
