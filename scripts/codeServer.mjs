// Starts a real VS Code (code-server) on 127.0.0.1 with Binlens installed from its VSIX, in a
// throw-away profile. Used by `npm start` and by the end-to-end tests (see ../shared/RECIPE-e2e.md).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CODE_SERVER = resolve('node_modules/.bin/code-server');

const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'files.simpleDialog.enable': true,
  'window.dialogStyle': 'custom',
  'chat.disableAIFeatures': true,
  'github.copilot.enable': { '*': false },
};

/**
 * Runs a command to its end without blocking the event loop.
 * @returns {Promise<{ status: number | null, output: string }>}
 */
function run(cmd, args, options, timeoutMs) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => (clearTimeout(timer), done({ status: null, output: `${output}${e.message}` })));
    child.once('close', (status) => (clearTimeout(timer), done({ status, output })));
  });
}

/**
 * @param {{ workspace: string, vsix: string, port?: number, settings?: Record<string, unknown>, log?: (line: string) => void }} opts
 */
export async function startCodeServer(opts) {
  const root = mkdtempSync(join(tmpdir(), 'binlens-code-server-'));
  const user = join(root, 'user');
  const extensions = join(root, 'extensions');
  mkdirSync(join(user, 'User'), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  writeFileSync(join(user, 'User', 'settings.json'), JSON.stringify({ ...SETTINGS, ...opts.settings }, null, 2));
  writeFileSync(join(root, 'config.yaml'), 'auth: none\ncert: false\n');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
  };
  const common = ['--user-data-dir', user, '--extensions-dir', extensions];
  // Asynchronous: a test worker blocked for the minute an install can take on a loaded machine
  // misses its test runner's calls ("Timeout calling onTaskUpdate").
  const install = await run(CODE_SERVER, [...common, '--install-extension', resolve(opts.vsix)], { env }, 120_000);
  if (install.status !== 0) throw new Error(`installing the VSIX failed:\n${install.output}`);

  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${opts.port ?? 0}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    join(root, 'config.yaml'),
    ...common,
    resolve(opts.workspace),
  ];
  const child = spawn(CODE_SERVER, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const exited = new Promise((done) => child.once('exit', done));
  const url = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`code-server did not start in 60 s:\n${lines.join('\n')}`)), 60_000);
    const onData = (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (!line.trim()) continue;
        lines.push(line);
        if (lines.length > 400) lines.shift();
        opts.log?.(line);
        const m = /HTTP server listening on (http:\/\/[^\s]+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          done(m[1].replace(/\/$/, ''));
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`code-server exited with ${code}:\n${lines.join('\n')}`));
    });
  });
  return {
    url,
    root,
    logTail: (n = 60) => lines.slice(-n).join('\n'),
    /** Stops code-server's whole process group and removes the profile. */
    async stop() {
      if (child.exitCode === null) {
        // The group's id is the child's pid; without one (spawn failed) there is no group to stop,
        // and process.kill(-0) would signal our own.
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        } catch {}
        const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
        if (!killed) {
          try {
            if (child.pid) process.kill(-child.pid, 'SIGKILL');
          } catch {}
          await exited;
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
