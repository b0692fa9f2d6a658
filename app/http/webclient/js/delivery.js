// An action on its way through a bad connection. When no answer comes (or a proxy's gateway
// error, or a 503) the action is sent again with the same Idempotency-Key, so it is applied
// at most once; but first the table is read, and the action goes again only while the table
// still stands as it was when the move was chosen, with that reading's ETag in If-Match (the
// table moving between the reading and the sending is a 412, not a move on another table). A
// table that moved on meanwhile is the answer: the move is in it (its first answer was lost),
// or it is not sent on a position it was not chosen for. While the server cannot be reached at
// all (no answer within api.limits.call counts so), this keeps trying every few seconds until
// it answers or the player stops it; an action that fails while the server
// answers reads is tried once more, then given up (that is not the connection).

import { unreachable } from "./reach.js";

const WAITS = [1500, 3000, 5000]; // ms before each read of the table; the last one repeats

/** The player stopped the sending before the action reached the server. */
export class Stopped extends Error {}

const retried = (error) => unreachable(error) || (!!error && error.status === 503);

/** Send an action: `post(tag)` sends it (always with the same Idempotency-Key; `tag`, when
 * not null, in If-Match), `read()` reads the table (`{data, tag}`: the view and its ETag),
 * `decided` is the version the move was chosen on, `troubled()` is called when a try fails
 * for want of an answer. Returns `{done, stop}`: `done` resolves to the view to
 * draw (the action's answer, or the table that moved on), or rejects with the refusal, the
 * last failure, or `Stopped` after `stop()`. */
export function delivery(post, read, decided, troubled) {
  let stopped = false;
  let wake = () => {};
  const pause = (ms) => new Promise((resolve) => {
    if (stopped) return resolve();
    wake = resolve;
    return setTimeout(resolve, ms);
  });

  async function tableAsDecided(waits) {
    // the table read again (as often as it takes): `{tag}` while it stands as decided on,
    // else `{view}`, the view it moved on to
    for (let tries = waits; ; tries += 1) {
      await pause(WAITS[Math.min(tries, WAITS.length - 1)]);
      if (stopped) throw new Stopped();
      try {
        const { data, tag } = await read();
        return data.version === decided ? { tag } : { view: data };
      } catch (error) {
        if (!retried(error)) throw error;
      }
    }
  }

  async function run() {
    let reached = false; // the server answered the read just before this try
    let tag = null; // that read's ETag
    for (let tries = 0; ; tries += 1) {
      if (stopped) throw new Stopped();
      try {
        return await post(tag);
      } catch (error) {
        if (!retried(error) || reached) throw error;
        if (stopped) throw new Stopped(); // (stopped while this try was on its way)
        troubled();
      }
      const table = await tableAsDecided(tries);
      if (table.view) return table.view;
      tag = table.tag;
      reached = true;
    }
  }

  return {
    done: run(),
    stop() {
      stopped = true;
      wake();
    },
  };
}
