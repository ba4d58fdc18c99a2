/** openssl on this machine, or null: https tests are skipped without it. */
export const OPENSSL = Bun.which("openssl");

/**
 * A self-signed certificate for `name` (key.pem and cert.pem in `dir`), for https servers on loopback that a
 * test reaches under a name only its own resolver knows. Returns the PEM text, to trust as the CA.
 */
export async function selfSignedCertificate(
  dir: string,
  name: string,
): Promise<{ cert: string; key: string; ca: string }> {
  const made = Bun.spawnSync([
    OPENSSL ?? "openssl",
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${name}`],
    ...["-addext", `subjectAltName=DNS:${name}`, "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`],
  ]);
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { cert: `${dir}/cert.pem`, key: `${dir}/key.pem`, ca: await Bun.file(`${dir}/cert.pem`).text() };
}
