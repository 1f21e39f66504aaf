// TLS in front of the loopback test servers, for the browser tests that need https (WebKit keeps a `Secure` cookie
// only there): a self-signed certificate for `localhost` and `127.0.0.1`, made by Debian's `openssl` at test time in a
// temporary folder, and a TLS terminator that hands each decrypted connection to a plain http server's port.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';
import { loopbackHost } from '../../src/local-defaults.ts';

export interface TestCertificate {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** A fresh self-signed key and certificate, valid a day, for `localhost` and `127.0.0.1`. */
export function makeTestCertificate(): TestCertificate {
  const folder = mkdtempSync(join(tmpdir(), 'fan-polls-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem'), '-days', '1'],
        ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(folder, 'key.pem')), cert: readFileSync(join(folder, 'cert.pem')) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export interface TlsTerminator {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens with TLS on `port` (0: a free one) and pipes each connection to `targetPort` on loopback. */
export async function terminateTls(
  certificate: TestCertificate,
  targetPort: number,
  port = 0,
  /** Sees each request's head (request line and headers) as the client sent it, decrypted. */
  watchRequest?: (head: string) => void,
): Promise<TlsTerminator> {
  const sockets = new Set<TLSSocket>();
  const server = createServer({ ...certificate, ALPNProtocols: ['http/1.1'] }, (socket) => {
    sockets.add(socket);
    const upstream = createConnection(targetPort, loopbackHost);
    if (watchRequest)
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (/^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(text)) watchRequest(text.split('\r\n\r\n')[0] ?? '');
      });
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      sockets.delete(socket);
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  // A client that gives up on the certificate mid-handshake is no error of the server's.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(port, loopbackHost, resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No TLS port');
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
