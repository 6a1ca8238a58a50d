import * as vscode from 'vscode';

/** An open dialog for one file that goes with an ensemble, starting in the ensemble's folder. */
async function askBeside(ensemble: vscode.Uri, dialog: Pick<vscode.OpenDialogOptions, 'openLabel' | 'title' | 'filters'>): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, ...dialog, defaultUri: vscode.Uri.joinPath(ensemble, '..') });
  return picked?.[0];
}

/** The open dialog for an ensemble's dual graph. */
export function askForGraph(ensemble: vscode.Uri): Promise<vscode.Uri | undefined> {
  return askBeside(ensemble, {
    openLabel: vscode.l10n.t('Use as graph'),
    title: vscode.l10n.t('The dual graph of this ensemble (NetworkX JSON)'),
    filters: { [vscode.l10n.t('Graph JSON')]: ['json'], [vscode.l10n.t('All files')]: ['*'] },
  });
}

/** The open dialog for a reference plan (an enacted plan): a JSON list of districts, or CSV node,district. */
export function askForReference(ensemble: vscode.Uri): Promise<vscode.Uri | undefined> {
  return askBeside(ensemble, {
    openLabel: vscode.l10n.t('Use as reference plan'),
    title: vscode.l10n.t('A reference plan: JSON list of districts, or CSV node,district'),
    filters: { [vscode.l10n.t('Plans')]: ['json', 'jsonl', 'csv'], [vscode.l10n.t('All files')]: ['*'] },
  });
}

/** The open dialog for the precincts' shapes: a GeoJSON FeatureCollection matched to the graph's nodes. */
export function askForShapes(ensemble: vscode.Uri): Promise<vscode.Uri | undefined> {
  return askBeside(ensemble, {
    openLabel: vscode.l10n.t('Use as precinct shapes'),
    title: vscode.l10n.t('The precincts of this ensemble (GeoJSON FeatureCollection)'),
    filters: { [vscode.l10n.t('GeoJSON')]: ['geojson', 'json'], [vscode.l10n.t('All files')]: ['*'] },
  });
}
