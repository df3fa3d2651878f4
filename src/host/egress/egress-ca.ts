/**
 * The certificate authority of one egress proxy: made when the proxy starts, trusted by the sandbox
 * for that one step, forgotten when it stops. The sandbox's npm and pip speak TLS to the proxy, which
 * answers as the registry with a certificate this CA signs, and makes the real request itself — with
 * the user's CA bundle, proxy and tokens, none of which the sandbox ever sees. Only the CA's
 * certificate (public) is written for the sandbox; its key stays in this process's memory.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import net from 'node:net';
import { promisify } from 'node:util';
import forge from 'node-forge';

export interface SiteCertificate {
  key: string;
  cert: string;
}

export interface EgressCa {
  /** The CA certificate, PEM: what the sandbox trusts. */
  certPem: string;
  /** A certificate for a host the proxy answers for (cached per host). */
  siteCertificate(host: string): SiteCertificate;
}

const VALID_DAYS = 2;

interface KeyPair {
  privatePem: string;
  publicPem: string;
}

/**
 * RSA keys from Node's crypto, certificates from node-forge (Node cannot write X.509). Making a key
 * takes a second or more on a busy machine, so the two keys are made once per process, off the main
 * thread, and kept in its memory; each proxy still gets a CA certificate of its own.
 */
const makeKeys = async (): Promise<KeyPair> => {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};
let keys: Promise<[KeyPair, KeyPair]> | null = null;

function baseCertificate(publicPem: string): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  // A positive serial: the first byte's high bit clear.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + VALID_DAYS * 24 * 60 * 60 * 1000);
  return cert;
}

export async function createEgressCa(): Promise<EgressCa> {
  keys ??= Promise.all([makeKeys(), makeKeys()]);
  const [caKeys, siteKeys] = await keys;
  const caKey = forge.pki.privateKeyFromPem(caKeys.privatePem);
  const ca = baseCertificate(caKeys.publicPem);
  const caName = [
    { name: 'commonName', value: 'sopworks install egress (one step)' },
    { name: 'organizationName', value: 'sopworks' },
  ];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKey, forge.md.sha256.create());

  // One key for every site: a new one per host buys nothing, as the sandbox trusts this CA alone.
  const cache = new Map<string, SiteCertificate>();
  return {
    certPem: forge.pki.certificateToPem(ca),
    siteCertificate(host) {
      const cached = cache.get(host);
      if (cached) return cached;
      const cert = baseCertificate(siteKeys.publicPem);
      cert.setSubject([{ name: 'commonName', value: host.slice(0, 64) }]);
      cert.setIssuer(ca.subject.attributes);
      // npm tunnelling to an address sends no server name and checks the certificate against
      // "localhost" (Node's default): a certificate for an address names that too.
      const altNames = net.isIP(host)
        ? [
            { type: 7, ip: host },
            { type: 2, value: 'localhost' },
          ]
        : [{ type: 2, value: host }];
      cert.setExtensions([
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
        { name: 'subjectKeyIdentifier' },
        { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
      ]);
      cert.sign(caKey, forge.md.sha256.create());
      const site = { key: siteKeys.privatePem, cert: forge.pki.certificateToPem(cert) };
      cache.set(host, site);
      return site;
    },
  };
}
