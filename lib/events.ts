/**
 * The one channel between the app and the server around it, inside one
 * process. Next loads route handlers, pages and instrumentation as separate
 * module instances, and scripts/serve.ts runs outside Next altogether, so a
 * module-level registry is not shared between them. Instead every message
 * that crosses that line is named and typed here, and goes through one
 * emitter that this module anchors once on the global object (whichever copy
 * of the module loads first makes it), beside the one fact the server states
 * for the app (that it stamps client addresses). Nothing else is shared.
 *
 * Deliberately plain Node (no Next or app imports): scripts/serve.ts imports it.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ReceivedUpload } from './front/upload-receiver/protocol';
import { RESUMABLE_UPLOAD_PATH, UPLOAD_PATH } from './upload-paths';

interface AppEvents {
  /**
   * What public pages show changed (a video approved, removed or edited): the
   * page cache drops entries under this path prefix, and when it is '/', other
   * in-process caches of public content (search rankings) drop theirs. On
   * PostgreSQL, lib/server/cluster also sends it to every other web process and
   * worker, and replays theirs here (decision 022).
   */
  'public-content-changed': [prefix: string];
  /** A job was committed: idle workers start now instead of at their next poll (in every process on PostgreSQL, through lib/server/cluster). */
  'jobs-enqueued': [];
  /** A video upload the production server hands over before Next (see isUploadRequest); the listener answers it. */
  'upload-request': [req: IncomingMessage, res: ServerResponse];
  /** An upload PATCH whose body the upload receiver process holds (lib/front/upload-receiver); the listener answers it. */
  'received-upload': [upload: ReceivedUpload];
}

type EventName = keyof AppEvents;

interface Channel {
  bus: EventEmitter<AppEvents>;
  /** Set by scripts/serve.ts, which stamps every request with the client's address (lib/front/resolve-client-address.ts). */
  clientAddressesStamped: boolean;
}

const ANCHOR = Symbol.for('chrysalis.channel');
const anchored = globalThis as typeof globalThis & { [ANCHOR]?: Channel };
// Workers add a listener each; tests start many. A leak would show as growth, not as this warning.
const channel: Channel = (anchored[ANCHOR] ??= {
  bus: new EventEmitter<AppEvents>().setMaxListeners(0),
  clientAddressesStamped: false,
});
const bus = channel.bus;

function emit<K extends EventName>(name: K, ...args: AppEvents[K]): boolean {
  return (bus.emit as (name: K, ...args: AppEvents[K]) => boolean)(name, ...args);
}

/** Subscribes; returns the function that unsubscribes. */
export function onAppEvent<K extends EventName>(name: K, listener: (...args: AppEvents[K]) => void): () => void {
  const on = bus.on as (name: K, listener: (...args: AppEvents[K]) => void) => unknown;
  const off = bus.off as typeof on;
  on.call(bus, name, listener);
  return () => {
    off.call(bus, name, listener);
  };
}

/** Drops cached public pages (all, or those under a path prefix) after a change to what they show. */
export function purgePublicPages(prefix = '/'): void {
  emit('public-content-changed', prefix);
}

/** Tells this process's idle workers that a job was just committed (call after the enqueueing transaction commits). */
export function wakeWorkers(): void {
  emit('jobs-enqueued');
}

/** Whether a Node request is a video upload (plain, or any request of a resumable one) for the app's upload handler. */
export function isUploadRequest(req: IncomingMessage): boolean {
  const path = req.url?.split('?')[0];
  if (req.method === 'POST' && path === UPLOAD_PATH) return true;
  return path === RESUMABLE_UPLOAD_PATH || path?.startsWith(`${RESUMABLE_UPLOAD_PATH}/`) === true;
}

/**
 * Hands a video upload to the app's handler (registered at start-up by
 * lib/server/videos/upload-node.ts); false when no handler is registered yet,
 * so the caller lets Next answer it.
 */
export function handOverUpload(req: IncomingMessage, res: ServerResponse): boolean {
  if (bus.listenerCount('upload-request') === 0) return false;
  return emit('upload-request', req, res);
}

/** Hands an upload PATCH held by the upload receiver to the app's handler; false when none is registered yet. */
export function handOverReceivedUpload(upload: ReceivedUpload): boolean {
  if (bus.listenerCount('received-upload') === 0) return false;
  return emit('received-upload', upload);
}

/**
 * Called once by scripts/serve.ts, which stamps every request with the
 * client's address: from then on route code in this process believes that
 * header. Under `next dev` or a bare `next start` nobody stamps, so a
 * client-sent copy must not count, and nothing turns this on.
 */
export function declareClientAddressStamping(): void {
  channel.clientAddressesStamped = true;
}

export function clientAddressesStamped(): boolean {
  return channel.clientAddressesStamped;
}
