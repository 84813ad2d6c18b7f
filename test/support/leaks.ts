// The leak check: a test file may not leave servers, child processes or TCP connections open once
// it is done. Run by setup.ts after the file's hooks, or, for files on the harness's fixtures
// (torn down after every hook), by the harness after its last fixture is torn down.

const LEAKS = new Set(['TCPServerWrap', 'ProcessWrap', 'TCPWrap']);
const open = () => process.getActiveResourcesInfo().filter((r) => LEAKS.has(r));

let baseline = open().length;
let deferred = false;

/** Called by the harness: the check runs when its fixtures are torn down, not in afterAll. */
export function deferLeakCheck(): void {
  deferred = true;
}

export const leakCheckDeferred = () => deferred;

/** Throws when more handles are open than when the file started; closing sockets get 5 s to finish. */
export async function checkLeaks(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (open().length > baseline && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const left = open();
  if (left.length > baseline) {
    const extra = left.length - baseline;
    baseline = left.length; // report once
    throw new Error(
      `The file left ${extra} handle(s) open after its last hook (${left.join(', ')}): ` +
        'stop every service, worker, receiver, pool and child process it started.',
    );
  }
}
