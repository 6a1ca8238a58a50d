/**
 * The unit square at (x, y) as GeoJSON Polygon coordinates, moved by `offset` on both axes: the
 * tests' precinct shapes for the 4×4 grid fixture. The offset keeps them planar: coordinates within
 * ±180/±90 read as degrees and would be projected.
 */
export function unitSquare(x: number, y: number, offset = 1000): number[][][] {
  const ring = [
    [x, y],
    [x + 1, y],
    [x + 1, y + 1],
    [x, y + 1],
    [x, y],
  ];
  return [ring.map(([a, b]) => [a! + offset, b! + offset])];
}
