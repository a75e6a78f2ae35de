'use client';

/**
 * The errors every caller of the API client must react to (lib/client/api-client.ts raises them): the session provider
 * and the region-blocked modal listen on every page. Apart from the client so that listening costs a page nothing
 * until something calls the API.
 */
export type ClientEvent =
  | { type: 'unauthorized'; path: string }
  | { type: 'forbidden'; message: string }
  | { type: 'regionBlocked'; countryCode: string | null };

const listeners = new Set<(event: ClientEvent) => void>();

export function onClientEvent(listener: (event: ClientEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitClientEvent(event: ClientEvent): void {
  listeners.forEach((listener) => listener(event));
}
