/**
 * The app server's side of the upload receiver (protocol.ts): starts the
 * receiver process and starts it again if it dies, hands it the connections
 * that open with an upload PATCH (`listenWithReceiver`), and turns its
 * messages into `ReceivedUpload`s for the app.
 *
 * Deliberately plain Node (no app imports): scripts/serve.ts imports it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

import type { BodyWritten } from '../upload-body';

import { opensReceiverRequest, type FromReceiver, type ReceivedUpload, type ToReceiver } from './protocol';

export interface ReceiverOptions {
  /** The receiver's entry (scripts/upload-receiver.ts), run with tsx. */
  entry: string;
  /** A request the receiver holds; `finished` settles when its connection closes (answered, or the client went away). */
  onRequest(upload: ReceivedUpload, finished: Promise<{ status: number; aborted: boolean }>): void;
  onProblem(message: string): void;
}

interface Pending {
  written?: (written: BodyWritten) => void;
  finished: (result: { status: number; aborted: boolean }) => void;
  /** The connection has closed (only kept for a write's report). */
  closed?: boolean;
}

/** What a listening server sets on the sockets it accepts (Node keeps them on the server; its types do not say so). */
interface ServerSocketOptions {
  noDelay: boolean;
  allowHalfOpen: boolean;
  keepAlive: boolean;
  keepAliveInitialDelay: number;
  highWaterMark: number;
}

/** How long a receiver that died waits before it is started again (a receiver that cannot start must not spin). */
const RESTART_DELAY_MS = 1000;

export class UploadReceiver {
  private child: ChildProcess | null = null;
  /** Whether the running child said it takes connections: until then (it is starting) the app server keeps them. */
  private ready = false;
  private stopped = false;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: ReceiverOptions) {}

  start(): void {
    const child = fork(this.options.entry, [], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('message', (message: FromReceiver) => this.receive(message));
    child.on('error', (error) => this.options.onProblem(`upload receiver: ${error.message}`));
    child.once('exit', (code, signal) => {
      this.child = null;
      this.ready = false;
      // Whatever it held is gone with it: writes fail (tus answers 500 to a client that is no longer there) and requests end.
      for (const pending of this.pending.values()) {
        pending.written?.({ bytes: 0, outcome: 'failed' });
        pending.finished({ status: 0, aborted: true });
      }
      this.pending.clear();
      if (this.stopped) return;
      this.options.onProblem(`upload receiver exited (${signal ?? `code ${code}`}); starting it again`);
      setTimeout(() => {
        if (!this.stopped) this.start();
      }, RESTART_DELAY_MS).unref();
    });
  }

  /** The receiver process's pid while it runs (for operators' tools and tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether connections are handed over now. */
  get running(): boolean {
    return this.ready && this.child?.connected === true;
  }

  stop(): void {
    this.stopped = true;
    this.child?.kill();
  }

  /**
   * Gives the receiver a connection whose first bytes (already read, `head`)
   * open an upload PATCH; false when no receiver is running, and the app
   * server keeps it. The socket stops reading first: what it read after being
   * handed over would be lost.
   */
  handOff(socket: Socket, head: Buffer): boolean {
    const child = this.child;
    if (!child || !this.running) return false;
    socket.pause();
    const handle = (socket as Socket & { _handle?: { reading: boolean; readStop(): number } | null })._handle;
    if (handle) {
      handle.reading = false;
      handle.readStop();
    }
    const message: ToReceiver = { type: 'connection', head };
    child.send(message, socket, (error) => {
      if (error) socket.destroy();
    });
    return true;
  }

  private send(message: ToReceiver): void {
    if (this.child?.connected) this.child.send(message);
  }

  private receive(message: FromReceiver): void {
    if (message.type === 'ready') return void (this.ready = true);
    if (message.type === 'failed') return this.options.onProblem(`upload receiver: ${message.message}`);
    if (message.type === 'written') {
      const pending = this.pending.get(message.id);
      pending?.written?.(message.written);
      if (pending) pending.written = undefined;
      if (pending?.closed) this.pending.delete(message.id);
      return;
    }
    if (message.type === 'finished') {
      const pending = this.pending.get(message.id);
      pending?.finished({ status: message.status, aborted: message.aborted });
      // A connection that dropped mid-body closes before its write reports what arrived: that report is still to come.
      if (pending?.written) pending.closed = true;
      else this.pending.delete(message.id);
      return;
    }
    const { id } = message;
    let finish!: Pending['finished'];
    const finished = new Promise<{ status: number; aborted: boolean }>((resolve) => (finish = resolve));
    const pending: Pending = { finished: finish };
    this.pending.set(id, pending);
    let ordered = false;
    const upload: ReceivedUpload = {
      method: message.method,
      url: message.url,
      headers: message.headers,
      socket: { remoteAddress: message.remoteAddress },
      writeBody: (order, stop) => {
        if (ordered) return Promise.reject(new Error('A received upload body is written once.'));
        ordered = true;
        if (!this.pending.has(id) || pending.closed) return Promise.resolve({ bytes: 0, outcome: 'ended' });
        return new Promise<BodyWritten>((resolve) => {
          const onStop = () => this.send({ type: 'stop', id });
          stop?.addEventListener('abort', onStop, { once: true });
          pending.written = (written) => {
            stop?.removeEventListener('abort', onStop);
            resolve(written);
          };
          this.send({ type: 'write', id, order });
        });
      },
      answer: (answer) => this.send({ type: 'answer', id, answer }),
    };
    this.options.onRequest(upload, finished);
  }
}

/**
 * Listens on `port` for `app`, handing the connections that open with an
 * upload PATCH to the receiver (any other connection, and every one while no
 * receiver runs, goes to `app` with the bytes read so far put back). A
 * connection that sends nothing within `idleMs` is closed, as the app
 * server's own header timeout would.
 */
export function listenWithReceiver(app: HttpServer, receiver: UploadReceiver, idleMs = 60_000): Server {
  // The listening server sets up every accepted socket: it must be the app server's own settings (Node's
  // HTTP server turns Nagle's algorithm off and allows half-open sockets; with Nagle on, an answer written
  // in pieces waits out the client's delayed ACK, 40 ms at a time).
  const own = app as HttpServer & ServerSocketOptions;
  const front = createServer(
    {
      noDelay: own.noDelay,
      allowHalfOpen: own.allowHalfOpen,
      keepAlive: own.keepAlive,
      keepAliveInitialDelay: own.keepAliveInitialDelay,
      highWaterMark: own.highWaterMark,
    },
    (socket) => {
      const dropped = () => socket.destroy();
      socket.once('error', dropped);
      socket.setTimeout(idleMs, dropped);
      socket.once('data', (first: Buffer) => {
        socket.setTimeout(0);
        socket.off('timeout', dropped);
        socket.off('error', dropped);
        if (opensReceiverRequest(first) && receiver.handOff(socket, first)) return;
        socket.pause();
        socket.unshift(first);
        app.emit('connection', socket);
        socket.resume();
      });
    },
  );
  // The app server tracks its connections' header and request timeouts from its 'listening' event (Node's
  // http server); it listens through this server, so it hears it from here.
  front.once('listening', () => app.emit('listening'));
  return front;
}
