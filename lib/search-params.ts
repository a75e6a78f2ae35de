/** A page's searchParams with the first value of each (repeated keys ignored, like the API's queryOf). */
export function firstValues(raw: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [key, (Array.isArray(value) ? value[0] : value) || undefined]),
  );
}
