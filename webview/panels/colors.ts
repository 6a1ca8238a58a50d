/** Theme colours for series and groups, in order (VS Code's chart palette). */
export const CHART_COLORS = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-red',
  '--vscode-charts-yellow',
];

export function chartColor(i: number): string {
  return `var(${CHART_COLORS[((i % CHART_COLORS.length) + CHART_COLORS.length) % CHART_COLORS.length]})`;
}
