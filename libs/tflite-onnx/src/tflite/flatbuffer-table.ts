import { ByteBuffer } from 'flatbuffers';

// A table inside a flatbuffer, read field by field id (the order of fields in the .fbs schema).
// Absent fields read as the schema default, which the caller passes.
export class FlatbufferTable {
  constructor(
    private readonly bb: ByteBuffer,
    private readonly position: number,
  ) {}

  static root(bb: ByteBuffer): FlatbufferTable {
    return new FlatbufferTable(bb, bb.readInt32(bb.position()) + bb.position());
  }

  uint8(id: number, fallback = 0): number {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readUint8(this.position + offset) : fallback;
  }

  int8(id: number, fallback = 0): number {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readInt8(this.position + offset) : fallback;
  }

  int32(id: number, fallback = 0): number {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readInt32(this.position + offset) : fallback;
  }

  uint32(id: number, fallback = 0): number {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readUint32(this.position + offset) : fallback;
  }

  uint64(id: number): bigint {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readUint64(this.position + offset) : 0n;
  }

  bool(id: number, fallback = false): boolean {
    const offset = this.fieldOffset(id);
    return offset ? this.bb.readUint8(this.position + offset) !== 0 : fallback;
  }

  string(id: number): string {
    const offset = this.fieldOffset(id);
    return offset ? (this.bb.__string(this.position + offset) as string) : '';
  }

  table(id: number): FlatbufferTable | undefined {
    const offset = this.fieldOffset(id);
    return offset ? new FlatbufferTable(this.bb, this.bb.__indirect(this.position + offset)) : undefined;
  }

  tables(id: number): FlatbufferTable[] {
    const offset = this.fieldOffset(id);
    if (!offset) return [];
    const start = this.bb.__vector(this.position + offset);
    const length = this.bb.__vector_len(this.position + offset);
    return Array.from({ length }, (_, i) => new FlatbufferTable(this.bb, this.bb.__indirect(start + 4 * i)));
  }

  int32s(id: number): number[] {
    const offset = this.fieldOffset(id);
    if (!offset) return [];
    const start = this.bb.__vector(this.position + offset);
    const length = this.bb.__vector_len(this.position + offset);
    return Array.from({ length }, (_, i) => this.bb.readInt32(start + 4 * i));
  }

  // A copy, so the parsed model does not alias the caller's file (a Node Buffer's slice() would).
  bytes(id: number): Uint8Array | undefined {
    const offset = this.fieldOffset(id);
    if (!offset) return undefined;
    const start = this.bb.__vector(this.position + offset);
    return new Uint8Array(this.bb.bytes().subarray(start, start + this.bb.__vector_len(this.position + offset)));
  }

  private fieldOffset(id: number): number {
    return this.bb.__offset(this.position, 4 + 2 * id);
  }
}
