/**
 * Splits a byte stream into lines, bounded: a line over `maxBytes` is dropped whole (the
 * bytes up to its newline are skipped) and reported, so one hostile frame costs at most
 * `maxBytes` of memory and never stops the stream. Pure apart from the callbacks.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = nl < 0 ? chunk.subarray(start) : chunk.subarray(start, nl);
      this.take(piece);
      if (nl < 0) return;
      this.end();
      start = nl + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.skipping) return;
    if (this.size > this.maxBytes) {
      this.skipping = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
  }

  private end(): void {
    if (this.skipping) this.onOversize(this.size);
    else if (this.size > 0) this.onLine(Buffer.concat(this.parts, this.size).toString('utf8'));
    this.parts = [];
    this.size = 0;
    this.skipping = false;
  }
}
