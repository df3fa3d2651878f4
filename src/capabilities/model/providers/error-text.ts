/** What an endpoint's failed answer says, read for the errors the OpenAI provider gives. */

/** A connection that was never made (refused, no such host), as opposed to one the server broke off. */
export function refused(error: unknown): boolean {
  const e = error as { message?: string; code?: string; cause?: { code?: string; message?: string; cause?: { code?: string } } };
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(
    `${e?.message ?? ''} ${e?.code ?? ''} ${e?.cause?.code ?? ''} ${e?.cause?.message ?? ''} ${e?.cause?.cause?.code ?? ''}`,
  );
}

/** The server's own error text from an error answer (its JSON message, or its text), on one short line; null when none. */
export function serverText(error: unknown): string | null {
  const e = error as { error?: unknown; message?: string; status?: number };
  const body = e?.error;
  const raw =
    typeof body === 'string'
      ? body
      : typeof (body as { message?: unknown })?.message === 'string'
        ? (body as { message: string }).message
        : typeof body === 'object' && body !== null
          ? JSON.stringify(body)
          : (e?.message ?? '').replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(raw)?.[1];
  const line = (title ?? raw.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  return `"${line.length > 160 ? `${line.slice(0, 157)}…` : line}"`;
}
