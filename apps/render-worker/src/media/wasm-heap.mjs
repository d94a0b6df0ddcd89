// @ts-check
// What an emscripten build imports to grow its heap: the memory grown to hold `bytes`, in whole pages;
// 1 when it does, 0 when it cannot (or before the instance exists), as emscripten_resize_heap answers.
const WASM_PAGE = 65536;

/**
 * @param {WebAssembly.Memory | undefined} memory
 * @param {number} bytes
 */
export function resizeHeap(memory, bytes) {
  if (!memory) return 0;
  const pages = Math.ceil(((bytes >>> 0) - memory.buffer.byteLength) / WASM_PAGE);
  try {
    if (pages > 0) memory.grow(pages);
    return 1;
  } catch {
    return 0;
  }
}
