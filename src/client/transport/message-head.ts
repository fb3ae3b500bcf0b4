/**
 * One message as a transport reads it (HeldMessage): its bytes while within `maxMessageBytes`;
 * past it, only its top-level `id` and `method`, read as its bytes go by, in constant memory:
 * what the client needs to know of a message too large to keep (message-bound.ts) to fail the
 * request it answers. Any key order works (servers often write `id` last); string
 * contents are skipped with `indexOf`, so reading a 100 MiB text result costs little. Bytes that
 * are not JSON (an SSE event's `data:` prefix) are ignored outside strings.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Longest key or value kept: JSON-RPC ids and method names are short. */
const MAX_CAPTURE = 256;

/**
 * The next of two bytes in one chunk, from a rising index. Each is searched again only once
 * passed (and never once absent), so a walk through the chunk stays linear however many stops
 * it makes.
 */
export class NextOfTwo {
  private a = -2;
  private b = -2;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly first: number,
    private readonly second: number,
  ) {}

  /** The index of the first of the two bytes at or after `from`, or -1. */
  from(from: number): number {
    if (this.a !== -1 && this.a < from) this.a = this.bytes.indexOf(this.first, from);
    if (this.b !== -1 && this.b < from) this.b = this.bytes.indexOf(this.second, from);
    return this.a < 0 ? this.b : this.b < 0 ? this.a : Math.min(this.a, this.b);
  }
}

export class MessageHead {
  id: string | number | undefined;
  method: string | undefined;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1 after `{` or `,`: the next string is a key. */
  private expectingKey = false;
  private keyBytes: number[] | undefined;
  private key: string | undefined;
  /** The raw text of the value of a wanted key, from its `:` to the `,` or `}` ending it. */
  private valueBytes: number[] | undefined;

  write(bytes: Uint8Array): void {
    const stringEnds = new NextOfTwo(bytes, QUOTE, BACKSLASH);
    for (let i = 0; i < bytes.length; i++) {
      let byte = bytes[i] as number;
      const capture = this.keyBytes ?? this.valueBytes;
      const capturing = capture !== undefined && capture.length <= MAX_CAPTURE;
      if (this.inString) {
        if (!capturing && !this.escaped) {
          i = stringEnds.from(i);
          if (i < 0) return;
          byte = bytes[i] as number;
        }
        const closes = !this.escaped && byte === QUOTE;
        if (capturing && !(closes && this.keyBytes)) capture.push(byte);
        this.escaped = !this.escaped && byte === BACKSLASH;
        if (closes) this.endString();
        continue;
      }
      if (this.depth === 1 && (byte === COMMA || byte === CLOSE_OBJECT)) this.endValue();
      else if (capturing) capture.push(byte);
      this.structure(byte);
    }
  }

  private structure(byte: number): void {
    if (byte === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectingKey) {
        this.expectingKey = false;
        this.keyBytes = [];
      }
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.depth++;
      if (this.depth === 1) this.expectingKey = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      this.depth = Math.max(0, this.depth - 1);
    } else if (this.depth === 1 && byte === COMMA) {
      this.expectingKey = true;
    } else if (this.depth === 1 && byte === COLON && (this.key === 'id' || this.key === 'method')) {
      this.valueBytes = [];
    }
  }

  private endString(): void {
    this.inString = false;
    if (!this.keyBytes) return;
    this.key = Buffer.from(this.keyBytes).toString();
    this.keyBytes = undefined;
  }

  private endValue(): void {
    const raw = this.valueBytes;
    const key = this.key;
    this.valueBytes = undefined;
    this.key = undefined;
    if (!raw || raw.length > MAX_CAPTURE) return;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(raw).toString());
    } catch {
      return;
    }
    if (key === 'method' && typeof value === 'string') this.method = value;
    if (key === 'id' && (typeof value === 'string' || typeof value === 'number')) this.id = value;
  }
}

/** The bytes of one message while it is within `limit`; past it, only its head. */
export class HeldMessage {
  private chunks: Uint8Array[] = [];
  private length = 0;
  private head: MessageHead | undefined;

  constructor(private readonly limit: number) {}

  /** Whether nothing of a message is held yet. */
  get empty(): boolean {
    return this.length === 0 && this.head === undefined;
  }

  add(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.head) {
      this.head.write(bytes);
      return;
    }
    this.chunks.push(bytes);
    this.length += bytes.length;
    if (this.length <= this.limit) return;
    this.head = new MessageHead();
    for (const kept of this.chunks) this.head.write(kept);
    this.chunks = [];
    this.length = 0;
  }

  /** Ends the message and starts the next: its chunks, or its head when it went over the limit. */
  end(): Uint8Array[] | MessageHead {
    const ended = this.head ?? this.chunks;
    this.clear();
    return ended;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.head = undefined;
  }
}
