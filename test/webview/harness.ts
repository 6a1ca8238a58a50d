import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DocDTO, HostNotice } from '../../src/protocol/protocol.js';
import type { Message } from '../../src/protocol/rpc.js';

const DIST = resolve(__dirname, '../../dist');

export interface WebviewPage {
  readonly page: Page;
  /** Every request the webview made, in order. */
  readonly requests: { op: string; params: Record<string, unknown> }[];
  /** What the webview told the host without asking (commands), less 'ready'. */
  readonly notices: { topic: string; payload: unknown }[];
  /** Content-Security-Policy violations the page reported. */
  readonly violations: string[];
  /** Sends the page a notice, as the host does. */
  send(n: HostNotice): Promise<void>;
}

/** The test's host: the result of each request; `emit` streams an event to it first. */
export type Answer = (op: string, params: Record<string, unknown>, emit: (event: unknown) => Promise<void>) => unknown;

/**
 * The built webview (dist/webview.js + webview.css) in headless Chromium under the extension's
 * strict CSP, with a stubbed `acquireVsCodeApi`: the test plays the host. `init` is sent when the
 * page says it is ready; `answer` answers each request (op, params).
 */
export async function openWebview(browser: Browser, init: HostNotice, answer: Answer, opts: { bypassCSP?: boolean; lang?: string } = {}): Promise<WebviewPage> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, bypassCSP: opts.bypassCSP });
  const requests: WebviewPage['requests'] = [];
  const notices: WebviewPage['notices'] = [];
  const violations: string[] = [];
  await page.route('http://binlens.test/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/') {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!DOCTYPE html><html lang="${opts.lang ?? 'en'}"><head><title>Binlens</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src http://binlens.test; script-src 'nonce-n0nce'; img-src http://binlens.test data:">
<link rel="stylesheet" href="/webview.css"></head><body><div id="app"></div>
<script nonce="n0nce">
document.addEventListener('securitypolicyviolation', (e) => window.__violation(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toHost(m), getState: () => window.__state, setState: (s) => { window.__state = s; } });
</script><script nonce="n0nce" src="/webview.js"></script></body></html>`,
      });
    }
    return route.fulfill({
      body: readFileSync(resolve(DIST, url.pathname.slice(1))),
      contentType: url.pathname.endsWith('.css') ? 'text/css' : 'text/javascript',
    });
  });
  const post = (m: Message) => page.evaluate((msg) => window.postMessage(msg, '*'), m);
  const send = (n: HostNotice) => post({ kind: 'notify', topic: n.topic, payload: n.payload });
  await page.exposeFunction('__violation', (v: string) => violations.push(v));
  await page.exposeFunction('__toHost', async (m: Message) => {
    if (m.kind === 'notify' && m.topic === 'ready') await send(init);
    else if (m.kind === 'notify') notices.push({ topic: m.topic, payload: m.payload });
    if (m.kind !== 'request') return;
    const params = m.params as Record<string, unknown>;
    requests.push({ op: m.op, params });
    const result = await answer(m.op, params, (event) => post({ kind: 'event', id: m.id, event }));
    await post({ kind: 'response', id: m.id, ok: true, result });
  });
  await page.goto('http://binlens.test/');
  return { page, requests, notices, violations, send };
}

/** The init notice of a small BEN document (chain.ben) whose only view is `panel`. */
export function benPanelInit(panel: DocDTO['panels'][number]): HostNotice {
  const doc: DocDTO = {
    fileName: 'chain.ben',
    size: 100,
    format: 'ben',
    formatLabel: 'BEN',
    title: 'BEN chain',
    summary: [],
    warnings: [],
    root: { id: 'root', label: 'chain.ben', childCount: 0 },
    tables: [],
    panels: [panel],
    searches: [],
    converters: [],
  };
  return { topic: 'init', payload: { kind: 'opened', doc, hexEditor: false } };
}
