/** The fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body, one value per name. */
export type FormReadResult =
  | { readonly ok: true; readonly params: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly reason: 'content-type' | 'repeated' };

/**
 * Reads an OAuth request body. Other content types are refused, as WSO2 (OLTU) does; a name sent twice is refused
 * too, because a repeated `code` or `client_id` makes the request ambiguous. File parts are ignored.
 */
export async function readFormParams(request: Request): Promise<FormReadResult> {
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  let entries: [string, string][];
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    entries = [...new URLSearchParams(await request.text())];
  } else if (contentType.startsWith('multipart/form-data')) {
    try {
      const form = await request.formData();
      entries = [];
      for (const [name, value] of form) if (typeof value === 'string') entries.push([name, value]);
    } catch {
      return { ok: false, reason: 'content-type' };
    }
  } else {
    return { ok: false, reason: 'content-type' };
  }
  const params = new Map<string, string>();
  for (const [name, value] of entries) {
    if (params.has(name)) return { ok: false, reason: 'repeated' };
    params.set(name, value);
  }
  return { ok: true, params };
}
