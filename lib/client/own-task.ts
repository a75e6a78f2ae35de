/**
 * Start-up work that would otherwise pile up in one long task, one job per task (decision 036).
 *
 * A page's start-up costs the main thread more than React's render, which React already slices into short tasks:
 * asking for a chunk appends a `<script>` (its fetch starts synchronously: 10–25 ms on a phone), `hydrateRoot` makes a
 * root that listens to every event type on its element (some 150 listeners, 20–30 ms on a phone), and a change to the
 * session store re-renders its readers synchronously. Run where they are asked for, they land in one task: every
 * deferred island's `.then` when their shared chunk arrives, the page's passive effects after hydration. A task
 * over 50 ms delays input, and its length over 50 ms is what total blocking time adds up. Given a task of its own,
 * each job is short, and a click between two of them is answered.
 *
 * The tasks come from a MessageChannel, as React's scheduler's do: a timer would be held to once a second in a
 * background tab, and a page opened in a background tab would start that slowly.
 */

type Job = () => void;

const queue: Job[] = [];
let channel: MessageChannel | null = null;
let posted = false;

/** Posts a task: a MessageChannel's message where there is one (every browser), a timer elsewhere (a test's DOM). */
function postTask() {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(runNext, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = runNext;
    // In Node (a unit test) a listening port would keep the process alive; browsers have no unref.
    (channel.port1 as MessagePort & { unref?: () => void }).unref?.();
  }
  channel.port2.postMessage(null);
}

function runNext() {
  posted = false;
  const job = queue.shift();
  // Post before running: a job that throws must not strand the ones after it.
  if (queue.length > 0) post();
  job?.();
}

function post() {
  if (posted) return;
  posted = true;
  postTask();
}

/** Runs `job` in a task of its own, after the jobs asked for before it. */
export function inTaskOfItsOwn(job: Job): void {
  queue.push(job);
  post();
}

/** A promise settled in a task of its own, after the jobs asked for before it. */
export function taskOfItsOwn(): Promise<void> {
  return new Promise((resolve) => inTaskOfItsOwn(resolve));
}
