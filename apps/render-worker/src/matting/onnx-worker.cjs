// One ONNX Runtime session in a worker thread. onnxruntime-node runs a model synchronously on the
// thread that calls it, so the render worker keeps its sessions here: its own thread is then free to
// finish one frame while the model reads the next. Plain CommonJS: it runs before any TypeScript hook.
// Messages: { id, kind: 'open', path, options, deviceLock? } and { id, kind: 'run', input, dims }; each
// is answered with { id, ok: true, mask?, input? } or { id, ok: false, error, input? } (a run's input
// handed back for the next).
const { parentPort, threadId } = require('node:worker_threads');
const ort = require('onnxruntime-node');

let session;
// Set when this session shares a device context with other threads' sessions (WebGPU: one per
// process, and two threads using it at once break its command encoders): an Int32Array over a
// SharedArrayBuffer holding the thread id of whoever uses the device, 0 when free.
let deviceLock;

let tail = Promise.resolve();

// One call at a time on this thread (where a provider's run awaits its results, the next message
// could otherwise start one beside it), and with deviceLock one at a time across the threads that
// share the device.
function exclusive(work) {
  const result = tail.then(() => (deviceLock ? locked(work) : work()));
  tail = result.catch(() => undefined);
  return result;
}

async function locked(work) {
  for (let holder; (holder = Atomics.compareExchange(deviceLock, 0, 0, threadId)) !== 0; ) Atomics.wait(deviceLock, 0, holder);
  try {
    return await work();
  } finally {
    Atomics.store(deviceLock, 0, 0);
    Atomics.notify(deviceLock, 0);
  }
}

parentPort.on('message', async (message) => {
  try {
    if (message.kind === 'open') {
      deviceLock = message.deviceLock ? new Int32Array(message.deviceLock) : undefined;
      session = await exclusive(() => ort.InferenceSession.create(message.path, message.options));
      parentPort.postMessage({ id: message.id, ok: true });
      return;
    }
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', message.input, message.dims) };
    const outputs = await exclusive(() => session.run(feeds));
    const mask = outputs[session.outputNames[0]].data;
    answer({ id: message.id, ok: true, mask, input: message.input }, [mask.buffer, message.input.buffer]);
  } catch (error) {
    answer({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error), input: message.input }, message.input ? [message.input.buffer] : []);
  }
});

// Moves the mask and the input back rather than copying them; a buffer that cannot be moved (one a
// provider keeps) is copied.
function answer(message, transfer) {
  try {
    parentPort.postMessage(message, transfer);
  } catch {
    parentPort.postMessage(message);
  }
}
