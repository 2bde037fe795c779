// The server's API from the page: JSON calls and server-sent event streams, with errors
// that say what happened.

const LOST = "the connection to the server was lost: is npuzzle serve still running?";
const UNREACHABLE = "the server cannot be reached: is npuzzle serve still running?";

async function failure(res) {
  let d = null;
  try { d = await res.json(); } catch (e) { d = null; }
  return new Error((d && d.error) || `the server answered ${res.status}`);
}

/** GETs `path` (or POSTs `body` as JSON): the answer's JSON, or an Error in the server's
 * words. An aborted call throws its AbortError. */
export async function api(path, body, signal) {
  const opts = body
    ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal }
    : { signal };
  let res;
  try { res = await fetch(path, opts); } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error(UNREACHABLE);
  }
  if (!res.ok) throw await failure(res);
  try { return await res.json(); } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error(LOST);
  }
}

/** POSTs `body` to a streaming endpoint and calls `on(name, data)` for each server-sent
 * event until the stream ends. */
export async function stream(path, body, signal, on) {
  let res;
  try {
    res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error(UNREACHABLE);
  }
  if (!res.ok) throw await failure(res);
  const reader = res.body.getReader(), dec = new TextDecoder();
  let buf = "";
  for (;;) {
    let chunk;
    try { chunk = await reader.read(); } catch (e) {
      if (e.name === "AbortError") throw e;
      throw new Error(LOST);
    }
    if (chunk.done) return;
    buf += dec.decode(chunk.value, { stream: true });
    let end;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      on(name, JSON.parse(data));
    }
  }
}
