// Prefer: wait=N (RFC 7240 section 4.3), capped at MAX_WAIT_SECONDS: how long a create or a read may
// hold its answer for the job to end. Null when the request asks for no wait. A preference the server
// does not understand is ignored, as the RFC asks; a wait past the cap is shortened to it.
export const MAX_WAIT_SECONDS = 60;

export function preferredWaitSeconds(header: string | string[] | undefined): number | null {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const preference of values.flatMap((value) => value.split(','))) {
    // A preference's own parameters follow a ';': wait takes none.
    const [token = '', rawValue] = (preference.split(';')[0] ?? '').split('=').map((part) => part.trim());
    if (token.toLowerCase() !== 'wait' || rawValue === undefined) continue;
    const value = rawValue.replace(/^"(.*)"$/, '$1');
    if (!/^\d{1,9}$/.test(value)) continue;
    const seconds = Number(value);
    return seconds > 0 ? Math.min(seconds, MAX_WAIT_SECONDS) : null;
  }
  return null;
}
