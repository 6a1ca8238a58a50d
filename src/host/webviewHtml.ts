import * as vscode from 'vscode';

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/[^A-Za-z0-9]/g, '');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The webview's page: one script and one stylesheet from the build output, a strict CSP with a
 * fresh nonce, no inline handlers and no network. Everything else the UI builds with DOM APIs.
 * "Opening…" is written here, translated, because the webview gets its strings with the init message.
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const n = nonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Binlens</title>
</head>
<body>
<div id="app" role="application" aria-label="Binlens"><p class="loading" role="status">${escapeHtml(vscode.l10n.t('Opening…'))}</p></div>
<script nonce="${n}" src="${script}"></script>
</body>
</html>`;
}
