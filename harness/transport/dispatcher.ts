/**
 * The dispatcher the harness's requests go through unless a service needs its own (mTLS). undici keeps
 * its global dispatcher under a symbol it shares with the copy of undici built into Node, and whichever
 * runs first in a process installs its Agent there: after Node's built-in fetch ran first (a library in
 * the same worker), the global one is Node's older undici, which does not know the handler API the
 * pacing at the wire uses (onRequestStart, transport/departure.ts) and fails every such request with
 * "invalid onError method". So the harness sends through an Agent of its own undici.
 */
import { Agent, type Dispatcher } from 'undici';

let agent: Agent | undefined;

export function harnessDispatcher(): Dispatcher {
  agent ??= new Agent();
  return agent;
}
