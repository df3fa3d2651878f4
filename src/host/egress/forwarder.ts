/**
 * The inside end of the egress: in a network namespace that has nothing but its own loopback, a Node
 * process listens on 127.0.0.1 (a free port), relays every connection to the proxy's Unix socket, and
 * runs the install command as its child with HTTP(S)_PROXY pointing at itself — so npm and pip find
 * the proxy as they would a corporate one. It ends when the command does, with its exit status.
 * Plain JavaScript in a string: it runs as `node -e` inside the sandbox, where sopworks' sources are not.
 */

/** argv: <socket> <command> [args…]. */
const FORWARDER = `
const net = require('node:net');
const os = require('node:os');
const { spawn } = require('node:child_process');
const [socketPath, ...command] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close);
  upstream.on('error', close);
  client.pipe(upstream).pipe(client);
});
server.on('error', (error) => { console.error('sopworks egress forwarder: ' + error.message); process.exit(125); });
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'npm_config_proxy', 'npm_config_https_proxy', 'PIP_PROXY']) env[name] = url;
  for (const name of ['NO_PROXY', 'no_proxy', 'npm_config_noproxy']) env[name] = '';
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { console.error('sopworks egress forwarder: ' + error.message); process.exit(127); });
  child.on('exit', (code, signal) => {
    server.close();
    process.exit(code ?? 128 + (os.constants.signals[signal] || 0));
  });
});
`;

/** The command wrapped in the forwarder, run by `node` (a path the sandbox can see). */
export function throughForwarder(node: string, socketPath: string, argv: readonly string[]): string[] {
  return [node, '-e', FORWARDER, socketPath, ...argv];
}

/** Where the sandbox's npm and pip find the CA they must trust (the proxy's one-step CA). */
export function trustEnvironment(caFile: string): Record<string, string> {
  return {
    npm_config_cafile: caFile,
    npm_config_strict_ssl: 'true',
    PIP_CERT: caFile,
    NODE_EXTRA_CA_CERTS: caFile,
    REQUESTS_CA_BUNDLE: caFile,
    SSL_CERT_FILE: caFile,
  };
}
