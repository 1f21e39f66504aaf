// Counts the commands in a client's byte stream to Redis (RESP: each command an array of bulk strings, `*N` then N
// times `$len` and `len` bytes), fed chunk by chunk as they cross a link, so a test or a bench can say how many
// Redis requests a proxy sent. One counter per connection: a command may be split across chunks.

/** A counter for one connection: feed it each chunk the client sent; it returns the commands that chunk began. */
export function respCommandCounter(): (chunk: Buffer) => number {
  /** An incomplete header line (`*3`, `$5`) held over from the last chunk. */
  let pending: Buffer | undefined;
  /** Bytes of a bulk string's payload (and its CRLF) still to pass. */
  let skip = 0;
  return (chunk) => {
    const data = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
    pending = undefined;
    let commands = 0;
    let at = 0;
    while (at < data.length) {
      if (skip > 0) {
        const passed = Math.min(skip, data.length - at);
        skip -= passed;
        at += passed;
        continue;
      }
      const end = data.indexOf('\r\n', at);
      if (end === -1) {
        pending = Buffer.from(data.subarray(at));
        break;
      }
      const kind = data[at];
      const length = Number(data.toString('latin1', at + 1, end));
      at = end + 2;
      if (kind === 0x2a /* '*' */) commands += 1;
      // `$-1` is a null bulk string: no payload follows.
      else if (kind === 0x24 /* '$' */ && length >= 0) skip = length + 2;
    }
    return commands;
  };
}
