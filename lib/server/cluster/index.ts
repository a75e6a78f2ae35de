import 'server-only';

import { onAppEvent, purgePublicPages, wakeWorkers } from '@/lib/events';

import { logger } from '../log';

import { CLUSTER_CHANNEL, ClusterBridge, type ClusterMessage } from './bridge';
import { clusterKey } from './envelope';

export { ClusterBridge, CLUSTER_CHANNEL, type ClusterMessage } from './bridge';
export { clusterKey } from './envelope';

const clusterLog = logger('cluster');
const ANCHOR = Symbol.for('chrysalis.cluster');
const anchored = globalThis as typeof globalThis & { [ANCHOR]?: { bridge: ClusterBridge; stop: () => Promise<void> } };

/**
 * Connects this process's events (lib/events.ts) to every other process on the
 * same PostgreSQL database (decision 022): purgePublicPages() and wakeWorkers()
 * here are sent to the others, and theirs are replayed here on the shared bus,
 * where the page cache (scripts/serve.ts), the search cache and idle workers
 * listen. Once per process (the bus is process-wide); PostgreSQL only, since
 * the embedded database has one process. Messages are signed with a key
 * derived from `sessionSecret` (getSessionSecret()), so every process of the
 * site must share it, as it already must for sessions. Returns the function
 * that stops it.
 */
export function startClusterEvents(
  connectionString: string,
  sessionSecret: string,
  logTo?: (message: string) => void,
): { bridge: ClusterBridge; stop: () => Promise<void> } {
  // Refused messages are warnings in the process log (someone else writes on the channel, or the secrets differ).
  const log = logTo ?? ((message: string) => clusterLog.info(message));
  const warn = logTo ?? ((message: string) => clusterLog.warn(message));
  const running = anchored[ANCHOR];
  if (running) return running;
  // Set while replaying a message from elsewhere, so it is not sent back out (emits are synchronous).
  let replaying = false;
  const replay = (message: ClusterMessage) => {
    replaying = true;
    try {
      for (const prefix of message.purge) purgePublicPages(prefix);
      if (message.jobs) wakeWorkers();
    } finally {
      replaying = false;
    }
  };
  const bridge = new ClusterBridge({ connectionString, key: clusterKey(sessionSecret), deliver: replay, log, warn });
  const unsubscribe = [
    onAppEvent('public-content-changed', (prefix) => {
      if (!replaying) bridge.publish({ purge: [prefix] });
    }),
    onAppEvent('jobs-enqueued', () => {
      if (!replaying) bridge.publish({ jobs: true });
    }),
  ];
  const handle = {
    bridge,
    async stop() {
      for (const off of unsubscribe) off();
      await bridge.stop();
      if (anchored[ANCHOR] === handle) delete anchored[ANCHOR];
    },
  };
  anchored[ANCHOR] = handle;
  void bridge
    .start()
    .then(() =>
      log(`[cluster] ${bridge.id} shares page purges and job wake-ups with the other processes (LISTEN ${CLUSTER_CHANNEL})`),
    );
  return handle;
}
