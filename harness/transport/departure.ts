/**
 * The last word on when a paced request leaves. A worker woken on time may still write its request
 * much later: a connection still being opened, other answers checked first, the process descheduled
 * (247 ms after the wake-up was seen on a loaded machine). Such a request would land among the slots
 * of others and break the window its slot kept. undici calls a handler's onRequestStart right before
 * it writes the request to the socket, in the same tick; a request past its departure time is
 * refused there, before a byte is written, and the connection is kept for the next one.
 */
import type { Dispatcher } from 'undici';
import { harnessDispatcher } from './dispatcher.ts';

/** Thrown when a paced request would have left after its departure time; nothing was sent. */
export class LateDeparture extends Error {
  constructor(readonly lateMs: number) {
    super(`the request would have left ${lateMs} ms after its pacing slot allowed; nothing was sent`);
  }
}

type Handler = Dispatcher.DispatchHandler;

/**
 * `dispatcher` (default the harness's own, transport/dispatcher.ts) writing a request only while Date.now() is at or before
 * `departBy`; `departed` learns when a request left.
 */
export function departingBy(departBy: number, departed: (at: number) => void, dispatcher: Dispatcher = harnessDispatcher()): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler: Handler) =>
      dispatch(options, {
        onRequestStart(controller, context) {
          const now = Date.now();
          // Thrown, not aborted: undici then fails the request without destroying the socket.
          if (now > departBy) throw new LateDeparture(now - departBy);
          departed(now);
          handler.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
        onResponseStart: (...args) => handler.onResponseStart?.(...args),
        onResponseData: (...args) => handler.onResponseData?.(...args),
        onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
        onResponseError: (...args) => handler.onResponseError?.(...args),
      }),
  );
}
