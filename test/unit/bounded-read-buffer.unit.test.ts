/**
 * The stdio client's reader of a server's stdout, fed chunks the way a pipe cuts them: a whole
 * line within one chunk is kept as a view of it, a line over several chunks is held and joined, a
 * line over maxMessageBytes is refused as it ends, and lines that are not JSON are skipped.
 */
import { describe, expect, it } from 'vitest';
import { BoundedReadBuffer } from '../../src/client/transport/bounded-read-buffer.js';
import { MessageBound } from '../../src/client/transport/message-bound.js';

const line = (message: object) => `${JSON.stringify(message)}\n`;
const answer = (id: number, text = 'ok') => ({ jsonrpc: '2.0', id, result: { text } });

function reader(limit = 1024) {
  const warnings: string[] = [];
  const bound = new MessageBound('s', limit, (message) => warnings.push(message));
  const buffer = new BoundedReadBuffer(bound);
  const drain = () => {
    const read: unknown[] = [];
    for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage())
      read.push(message);
    return read;
  };
  return { buffer, drain, warnings };
}

describe('BoundedReadBuffer', () => {
  it('reads every line of one chunk, skipping empty lines, a carriage return and what is not JSON', () => {
    const { buffer, drain } = reader();
    buffer.append(
      Buffer.from(`${line(answer(1))}\nnot json\n${JSON.stringify(answer(2))}\r\n${line(answer(3))}`),
    );
    expect(drain()).toEqual([answer(1), answer(2), answer(3)]);
  });

  it('joins a line cut across chunks, and reads the whole lines that follow it in the last chunk', () => {
    const { buffer, drain } = reader();
    const text = line(answer(1, 'x'.repeat(100))) + line(answer(2));
    const cut = 40;
    buffer.append(Buffer.from(text.slice(0, cut)));
    buffer.append(Buffer.from(text.slice(cut, cut + 30)));
    expect(drain()).toEqual([]);
    buffer.append(Buffer.from(text.slice(cut + 30)));
    expect(drain()).toEqual([answer(1, 'x'.repeat(100)), answer(2)]);
  });

  it('refuses a line over the bound, whole in one chunk or cut across two, and reads on after it', () => {
    const { buffer, drain, warnings } = reader(64);
    const big = line({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(200) } });
    buffer.append(Buffer.from(big + line(answer(1))));
    buffer.append(Buffer.from(big.slice(0, 50)));
    buffer.append(Buffer.from(big.slice(50) + line(answer(2))));
    expect(drain()).toEqual([answer(1), answer(2)]);
    expect(warnings).toEqual([
      expect.stringMatching(/a notifications\/message is larger than 64 bytes \(maxMessageBytes\)/),
      expect.stringMatching(/a notifications\/message is larger than 64 bytes/),
    ]);
  });

  it('answers a request whose answer is over the bound with an error naming the bound', () => {
    const { buffer, drain } = reader(32);
    buffer.append(Buffer.from(line(answer(7, 'z'.repeat(100)))));
    expect(drain()).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: expect.objectContaining({ data: { maxMessageBytes: 32 } }),
      },
    ]);
  });
});
